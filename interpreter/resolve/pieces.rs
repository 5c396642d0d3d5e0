//! Pieces: the first pass that declares every piece's name and attributes (so programs may
//! name any piece), then each `(piece ...)` form: help, notation, images, attributes, and its
//! move and drop blocks.

use super::{program, quoted, Cx};
use crate::def::*;
use crate::diagnostic::Diagnostic;
use crate::syntax::{Sexp, SexpKind};

impl Cx {
    /// First pass over a piece: its name and attributes, so programs can refer to any piece.
    pub(super) fn declare_piece(&mut self, form: &Sexp) {
        let items = form.list().unwrap_or_default();
        let name = items[1..].iter().find(|f| f.head() == Some("name"));
        let Some(name_form) = name else {
            self.missing(form, "piece name", "(piece (name NAME) ...)");
            return;
        };
        let Some(node) = name_form.list().and_then(|l| l.get(1)) else {
            self.missing(name_form, "piece name", "(name NAME)");
            return;
        };
        let Some(name) = self.sym(node, "a piece name") else {
            return;
        };
        if self.pieces.contains_key(name) {
            self.warn(node.span, format!("piece `{name}` is declared twice"))
                .primary
                .text = "this later declaration replaces the earlier one".into();
            return;
        }
        let id = PieceId(self.pieces.len() as u16);
        self.pieces.insert(name.to_string(), id);
        for f in items[1..].iter().filter(|f| f.head() == Some("attribute")) {
            if let Some(n) = f.list().and_then(|l| l.get(1)).and_then(Sexp::sym) {
                let k = self.attrs.len();
                self.attrs.entry(n.to_string()).or_insert(AttrId(k as u16));
            }
        }
    }

    /// `(image PLAYER FILE [ALT...] PLAYER FILE ...)`: each player's bitmaps, as written.
    /// A name that is no player is a warning (Zillions only draws with these).
    fn piece_images(&mut self, args: &[Sexp], images: &mut Vec<(PlayerId, Vec<String>)>) {
        let mut current: Option<usize> = None;
        for a in args {
            match &a.kind {
                SexpKind::Str(t) => {
                    if let Some(k) = current {
                        images[k].1.push(t.to_string());
                    }
                }
                _ => {
                    current = self.soft("this image", |cx| cx.player(a)).map(|p| {
                        match images.iter().position(|(q, _)| *q == p) {
                            Some(k) => k,
                            None => {
                                images.push((p, Vec::new()));
                                images.len() - 1
                            }
                        }
                    });
                }
            }
        }
    }

    pub(super) fn piece_form(&mut self, form: &Sexp) -> PieceDef {
        const PIECE_FORMS: &[&str] = crate::keywords::PIECE;
        let items = form.list().unwrap_or_default();
        let mut def = PieceDef {
            name: String::new(),
            help: String::new(),
            description: String::new(),
            notation: None,
            attributes: Vec::new(),
            moves: Vec::new(),
            drops: Vec::new(),
            dummy: false,
            captured_as: None,
            value: None,
            images: Vec::new(),
            span: form.span,
        };
        for sub in &items[1..] {
            let Some(parts) = sub.list() else {
                self.expected(
                    sub,
                    &format!("one of {} in `(piece ...)`", quoted(PIECE_FORMS)),
                );
                continue;
            };
            let head = sub.head().unwrap_or("");
            let args = parts.get(1..).unwrap_or_default();
            match head {
                "name" => {
                    def.name = args.first().and_then(Sexp::atom_text).unwrap_or_default();
                }
                "help" | "description" => {
                    let t: Vec<String> = args
                        .iter()
                        .filter_map(|a| self.text(a, "a text string"))
                        .collect();
                    if head == "help" {
                        def.help = t.join(" ");
                    } else {
                        def.description = t.join(" ");
                    }
                }
                "notation" => def.notation = args.first().and_then(Sexp::atom_text),
                "image" => self.piece_images(args, &mut def.images),
                "sound" | "release-sound" | "move-sound" | "capture-sound" | "drop-sound" => {}
                "attribute" => {
                    let [name, value] = args else {
                        self.missing(
                            sub,
                            "attribute name and default",
                            "(attribute NAME true|false)",
                        );
                        continue;
                    };
                    let Some(n) = self.sym(name, "an attribute name") else {
                        continue;
                    };
                    // Registered by the pre-pass over piece declarations, except for a piece
                    // declared a second time (that pass skips it): register it here.
                    let k = self.attrs.len();
                    let id = *self.attrs.entry(n.to_string()).or_insert(AttrId(k as u16));
                    let v = match (value.sym(), &value.kind) {
                        (Some("true"), _) => true,
                        (Some("false"), _) => false,
                        (_, SexpKind::List(_)) => {
                            self.expected(value, "`true` or `false`");
                            false
                        }
                        (_, kind) => {
                            // Dagaz files give numbers and quoted names; Zillions attributes are booleans.
                            let v = !matches!(kind, SexpKind::Int(0));
                            self.warn(value.span, "attribute values other than `true` and `false` are a Dagaz extension")
                                .primary
                                .text = format!("read as {v}");
                            v
                        }
                    };
                    def.attributes.push((id, v));
                }
                "moves" | "drops" => {
                    let blocks = program::resolve_blocks(self, args);
                    if head == "moves" {
                        def.moves.extend(blocks);
                    } else {
                        def.drops.extend(blocks);
                    }
                }
                "dummy" => def.dummy = true,
                "captured-as" => {
                    let Some(first) = args.first() else {
                        self.missing(sub, "piece", "(captured-as PIECE [ATTRIBUTE])");
                        continue;
                    };
                    let piece = self.piece(first);
                    let attr = match args.get(1) {
                        Some(a) => match a.sym().and_then(|n| self.attrs.get(n).copied()) {
                            Some(id) => Some(id),
                            None => {
                                let d = self.unknown("attribute", a, self.attrs.keys());
                                self.diags.push(d);
                                continue;
                            }
                        },
                        None => None,
                    };
                    def.captured_as = piece.map(|p| (p, attr));
                }
                "value" => {
                    let [n] = args else {
                        let d = Diagnostic::error(sub.span, "`value` takes one number")
                            .with_label("expected `(value N)`, N in hundredths of a unit");
                        self.diags.push(d);
                        continue;
                    };
                    if let Some(v) = self.int(n, "a whole number of hundredths, such as 900") {
                        match i32::try_from(v) {
                            Ok(v) if v.unsigned_abs() <= MAX_PIECE_VALUE => def.value = Some(v),
                            _ => {
                                let d = Diagnostic::error(
                                    n.span,
                                    format!("piece value {v} is out of range"),
                                )
                                .with_label(format!(
                                    "expected a number from -{MAX_PIECE_VALUE} to {MAX_PIECE_VALUE}"
                                ));
                                self.diags.push(d);
                            }
                        }
                    }
                }
                "glyph" => {
                    self.warn(sub.span, "ignored: Dagaz-only piece form `glyph`");
                }
                _ => {
                    let d = Diagnostic::error(sub.span, format!("unknown piece form `{head}`"))
                        .with_label(format!(
                            "expected one of {} in `(piece ...)`",
                            quoted(PIECE_FORMS)
                        ))
                        .suggest(head, PIECE_FORMS.iter().copied());
                    self.diags.push(d);
                }
            }
        }
        def
    }
}
