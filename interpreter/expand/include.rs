//! Includes: the file an `(include "FILE")` names, beside the including file, else in the
//! embedded standard library; nesting, cycles and the total size read are limited.

use super::{Expander, ReadError, MAX_INCLUDED_BYTES, MAX_INCLUDE_DEPTH};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::FileId;
use crate::stdlib;
use crate::syntax::{parse_file, Sexp, SexpKind};

impl Expander<'_> {
    /// Reads and parses the file an `(include "name")` form names.
    pub(super) fn read_include(&mut self, form: &Sexp) -> Option<(FileId, Vec<Sexp>)> {
        let items = form.list().unwrap_or_default();
        let target = match items.get(1).map(|n| &n.kind) {
            Some(SexpKind::Str(s)) | Some(SexpKind::Sym(s)) if items.len() == 2 => s.to_string(),
            _ => {
                self.diags.push(
                    Diagnostic::error(form.span, "malformed `include`")
                        .with_label("expected `(include \"FILE\")`"),
                );
                return None;
            }
        };
        if self.includes.len() > MAX_INCLUDE_DEPTH {
            self.diags.push(
                Diagnostic::error(form.span, "includes are nested too deeply")
                    .with_code(Code::IncludesTooDeep)
                    .with_note(format!("include chain: {}", self.includes.join(" -> "))),
            );
            return None;
        }
        let including = self.map.file(form.span.file).name.clone();
        let joined = join_path(&including, &target);
        let found = self.loader.read(&joined);
        let (name, bytes) = if let Ok(bytes) = found {
            (joined, bytes)
        } else if let Err(ReadError::Unreadable(why)) = found {
            self.diags.push(
                Diagnostic::error(form.span, format!("cannot read included file `{target}`"))
                    .with_label(format!("`{joined}`: {why}")),
            );
            return None;
        } else if let Some(text) = stdlib::file(&target) {
            (format!("<stdlib>/{target}"), text.as_bytes().to_vec())
        } else {
            let known: Vec<&str> = stdlib::FILES.iter().map(|(n, _)| *n).collect();
            self.diags.push(
                Diagnostic::error(form.span, format!("cannot find included file `{target}`"))
                    .with_label(format!("looked for `{joined}` and in the standard library"))
                    .suggest(&target, known),
            );
            return None;
        };
        if self.includes.contains(&name) {
            let mut chain = self.includes.clone();
            chain.push(name.clone());
            self.diags.push(
                Diagnostic::error(form.span, format!("`{target}` includes itself"))
                    .with_label("this include closes a cycle")
                    .with_note(format!("include chain: {}", chain.join(" -> "))),
            );
            return None;
        }
        self.included = self.included.saturating_add(bytes.len());
        if self.included > MAX_INCLUDED_BYTES {
            self.diags.push(
                Diagnostic::error(form.span, format!("cannot include `{target}`")).with_label(
                    format!(
                        "the included files would hold more than {} MiB in all",
                        MAX_INCLUDED_BYTES >> 20
                    ),
                ),
            );
            return None;
        }
        let file = self.map.add_bytes(name, &bytes);
        self.map.set_included_from(file, form.span);
        let (forms, diags) = parse_file(file, &self.map.file(file).text);
        self.diags.extend(diags);
        Some((file, forms))
    }
}

/// Joins an include target to the folder of the including file.
fn join_path(including: &str, target: &str) -> String {
    let target = target.replace('\\', "/");
    let joined = match (target.starts_with('/'), including.rfind('/')) {
        (true, _) | (false, None) => target,
        (false, Some(i)) => format!("{}/{}", &including[..i], target),
    };
    // Fold `.` and `..` so that a cycle through `sub/../main.zrf` is seen as one.
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "." => {}
            ".." if parts.last().is_some_and(|p| !p.is_empty() && *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}
