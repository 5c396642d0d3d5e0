//! The answers to an editor's questions about an analysed document: definitions,
//! references, hover, completion, symbols, rename, highlighting and code lenses.

use std::collections::HashMap;
use std::path::PathBuf;

use lsp_types::{
    CodeLens, Command, CompletionItem, CompletionItemKind, DocumentSymbol, Hover, HoverContents,
    InsertTextFormat, Location, MarkupContent, MarkupKind, SemanticToken, SemanticTokenType,
    SymbolKind, TextEdit, Uri, WorkspaceEdit,
};
use zrf::def::{GameDef, PlayerId, PosId};
use zrf::keywords;
use zrf::names::{Kind, Name, Outline};
use zrf::source::Span;
use zrf::syntax::{tokens, TokenKind};

use super::analysis::Analysis;
use super::text::{uri_to_path, LineIndex};

/// The longest text a hover shows of a macro or its expansion.
const HOVER_CHARS: usize = 3000;
/// The most links a hover lists.
const HOVER_LINKS: usize = 48;
/// The most completion items offered.
const MAX_COMPLETIONS: usize = 3000;

/// The name at a byte of the document and the span of that occurrence.
pub fn name_at(a: &Analysis, offset: usize) -> Option<(&Name, Span)> {
    a.index.at(a.root, offset)
}

/// Where the name at the cursor is declared (for an `include`, the file).
pub fn definition(a: &Analysis, offset: usize) -> Vec<Location> {
    match name_at(a, offset) {
        Some((name, _)) => name.defs.iter().filter_map(|&s| a.location(s)).collect(),
        None => Vec::new(),
    }
}

/// One place a name is written.
pub struct Place {
    /// Where, as the editor sees it.
    pub location: Location,
    /// The file, as one path for every load (canonical when it exists).
    pub file: PathBuf,
    /// A declaration, not a use.
    pub def: bool,
    /// In the built-in library.
    pub stdlib: bool,
}

/// Every place a name of the load is written, declarations first.
pub fn places(a: &Analysis, name: &Name) -> Vec<Place> {
    let defs = name.defs.iter().map(|s| (s, true));
    let refs = name.refs.iter().map(|s| (s, false));
    defs.chain(refs)
        .filter_map(|(&span, def)| {
            let location = a.location(span)?;
            let file_name = &a.map.file(span.file).name;
            let stdlib = file_name.starts_with("<stdlib>/");
            let file = uri_to_path(&location.uri)?;
            let file = std::fs::canonicalize(&file).unwrap_or(file);
            Some(Place {
                location,
                file,
                def,
                stdlib,
            })
        })
        .collect()
}

/// The places of the name that `name` (of the document `a`) is in another load `b`: the name
/// of the same kind and spelling whose declarations are the same places in the same files.
pub fn same_name(a_defs: &[Place], b: &Analysis, name: &Name) -> Option<Vec<Place>> {
    let other = b.index.get(name.kind, &name.name)?;
    let theirs = places(b, other);
    let shared = a_defs.iter().filter(|p| p.def).any(|p| {
        theirs
            .iter()
            .any(|q| q.def && q.file == p.file && q.location.range == p.location.range)
    });
    shared.then_some(theirs)
}

/// Why a name cannot be renamed: it is declared in the built-in library and nowhere else.
pub fn library_only(name: &Name, places: &[Place]) -> Option<String> {
    let own = places.iter().any(|p| p.def && !p.stdlib);
    let p = places.iter().find(|p| p.def && p.stdlib).filter(|_| !own)?;
    Some(format!(
        "the {} `{}` is declared in the built-in library ({}), which cannot be renamed",
        name.kind.word(),
        name.name,
        p.file
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned())
    ))
}

// `WorkspaceEdit::changes` is keyed by `Uri`, whose parsed form caches inside; the key is
// never changed while in the map.
#[allow(clippy::mutable_key_type)]
/// A rename of every place given to `new_name`, outside the built-in library; an error when
/// the name is declared only in the library (the game takes it from there, and the library
/// is not the author's to change).
pub fn rename(name: &Name, places: &[Place], new_name: &str) -> Result<WorkspaceEdit, String> {
    if let Some(why) = library_only(name, places) {
        return Err(why);
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for p in places.iter().filter(|p| !p.stdlib) {
        changes
            .entry(p.location.uri.clone())
            .or_default()
            .push(TextEdit {
                range: p.location.range,
                new_text: new_name.to_string(),
            });
    }
    Ok(WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    })
}

fn clip(mut s: String) -> String {
    if s.chars().count() > HOVER_CHARS {
        s = s.chars().take(HOVER_CHARS).collect::<String>() + "\n...";
    }
    s
}

/// What the hover shows for the name at the cursor.
pub fn hover(a: &Analysis, offset: usize) -> Option<Hover> {
    let (name, span) = name_at(a, offset)?;
    let mut text = format!("**{}** `{}`\n\n", name.kind.word(), name.name);
    match name.kind {
        Kind::Macro => macro_hover(a, name, span, &mut text),
        Kind::Piece => {
            if let Some(lines) = piece_summary(a, &name.name) {
                text.push_str(&format!("```\n{lines}\n```\n"));
            }
        }
        Kind::Position => {
            if let Some(def) = &a.def {
                position_hover(def, &name.name, &mut text);
            }
        }
        Kind::Direction => {
            if let Some(def) = &a.def {
                direction_hover(def, &name.name, &mut text);
            }
        }
        Kind::Zone => {
            if let Some(def) = &a.def {
                zone_hover(def, &name.name, &mut text);
            }
        }
        _ => {}
    }
    text.push_str(&format!(
        "{} declaration(s), {} use(s)",
        name.defs.len(),
        name.refs.len()
    ));
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(a.range(span)),
    })
}

fn macro_hover(a: &Analysis, name: &Name, span: Span, text: &mut String) {
    if let Some(&d) = name.defs.first() {
        // The whole `(define ...)` form: the name's span is inside it.
        let whole = define_form(a, d).unwrap_or(d);
        let body = a.map.snippet(whole).to_string();
        text.push_str(&format!("```zrf\n{}\n```\n", clip(body)));
    }
    if let Some(expansion) = expansion_at(a, span) {
        text.push_str(&format!(
            "expands here to:\n```zrf\n{}\n```\n",
            clip(expansion)
        ));
    }
}

/// The `(define ...)` form around a macro's name.
fn define_form(a: &Analysis, name: Span) -> Option<Span> {
    let text = &a.map.file(name.file).text;
    let open = text.get(..name.lo as usize)?.rfind('(')?;
    let (forms, _) = zrf::syntax::parse_file(name.file, text);
    forms
        .iter()
        .find(|f| f.span.lo as usize == open)
        .map(|f| f.span)
}

/// The text a macro call at `name` (its name's span in the document) expanded to.
fn expansion_at(a: &Analysis, name: Span) -> Option<String> {
    let text = &a.map.file(name.file).text;
    let open = text
        .get(..name.lo as usize)?
        .trim_end()
        .len()
        .checked_sub(1)?;
    let mut id = None;
    for i in 1.. {
        let exp_id = zrf::source::ExpId(i);
        let Some(e) = a.map.expansion(exp_id) else {
            break;
        };
        if e.call.file == name.file
            && e.call.lo as usize == open
            && e.call.exp == zrf::source::ExpId::NONE
        {
            id = Some(exp_id);
            break;
        }
    }
    let id = id?;
    let from = |mut e: zrf::source::ExpId| {
        let mut guard = 0;
        while e != zrf::source::ExpId::NONE && guard < 64 {
            if e == id {
                return true;
            }
            e = a
                .map
                .expansion(e)
                .map_or(zrf::source::ExpId::NONE, |x| x.call.exp);
            guard += 1;
        }
        false
    };
    let mut out = Vec::new();
    let mut seen = 0usize;
    for g in &a.games {
        let mut stack: Vec<&zrf::syntax::Sexp> = g.forms.iter().map(|f| &**f).collect();
        while let Some(node) = stack.pop() {
            seen += 1;
            if seen > 2_000_000 || out.len() > 64 {
                break;
            }
            if from(node.span.exp) {
                out.push((node.span.lo, node.to_string()));
                continue;
            }
            if let Some(items) = node.list() {
                stack.extend(items.iter().rev());
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    if out.is_empty() {
        return None;
    }
    let joined = out
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join("\n");
    let laid = zrf::format::format(&joined).unwrap_or(joined);
    Some(laid.trim_end().to_string())
}

/// The piece's lines of `zrf check`'s summary: its moves and drops, and its value.
fn piece_summary(a: &Analysis, piece: &str) -> Option<String> {
    let def = a.def.as_ref()?;
    let summary = a
        .summary
        .get_or_init(|| zrf::summary::describe_rules(&zrf::engine::Rules::new(def.clone())));
    let lines: Vec<&str> = summary
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.strip_prefix(piece)
                .is_some_and(|r| r.starts_with([' ', ':']))
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn pos_name(def: &GameDef, p: PosId) -> &str {
    &def.board.positions[p.idx()].name
}

fn position_hover(def: &GameDef, name: &str, text: &mut String) {
    let Some(pos) = def.board.pos_id(name) else {
        return;
    };
    let b = &def.board;
    let mut zones = Vec::new();
    for (z, zone) in b.zones.iter().enumerate() {
        for (p, player) in def.players.iter().enumerate() {
            let zid = zrf::def::ZoneId(z as _);
            if b.in_zone(zid, PlayerId(p as _), pos) {
                zones.push(format!("{} ({})", zone.name, player.name));
            }
        }
    }
    if !zones.is_empty() {
        text.push_str(&format!("zones: {}\n\n", zones.join(", ")));
    }
    let links: Vec<String> = b
        .directions
        .iter()
        .enumerate()
        .filter_map(|(d, dn)| {
            let to = b.step(PlayerId(0), zrf::def::DirId(d as _), pos)?;
            Some(format!("{dn} → {}", pos_name(def, to)))
        })
        .collect();
    if !links.is_empty() {
        text.push_str(&format!(
            "links (for {}): {}\n\n",
            def.players.first().map_or("", |p| p.name.as_str()),
            links.join(", ")
        ));
    }
}

fn direction_hover(def: &GameDef, name: &str, text: &mut String) {
    let b = &def.board;
    let Some(d) = b.directions.iter().position(|x| x == name) else {
        return;
    };
    let dir = zrf::def::DirId(d as _);
    if let Some(Some(o)) = b.opposite.get(d) {
        text.push_str(&format!("opposite: {}\n\n", b.directions[o.idx()]));
    }
    let links: Vec<String> = (0..b.n_pos())
        .filter_map(|p| {
            let from = PosId(p as _);
            let to = b.step(PlayerId(0), dir, from)?;
            Some(format!("{} → {}", pos_name(def, from), pos_name(def, to)))
        })
        .collect();
    let shown = links.len().min(HOVER_LINKS);
    text.push_str(&format!(
        "{} link(s){}: {}{}\n\n",
        links.len(),
        def.players
            .first()
            .map_or(String::new(), |p| format!(" for {}", p.name)),
        links[..shown].join(", "),
        if links.len() > shown { ", ..." } else { "" }
    ));
}

fn zone_hover(def: &GameDef, name: &str, text: &mut String) {
    let b = &def.board;
    for zone in b.zones.iter().filter(|z| z.name == name) {
        for (p, ps) in zone.positions.iter().enumerate() {
            if ps.is_empty() {
                continue;
            }
            let names: Vec<&str> = ps
                .iter()
                .take(HOVER_LINKS)
                .map(|&q| pos_name(def, q))
                .collect();
            text.push_str(&format!(
                "{}: {}{}\n\n",
                def.players.get(p).map_or("?", |x| x.name.as_str()),
                names.join(" "),
                if ps.len() > names.len() { " ..." } else { "" }
            ));
        }
    }
}

/// The heads of the open lists around a byte, innermost last, and whether the byte is just
/// after a `(` (where a form's keyword goes).
fn context(text: &str, offset: usize) -> (Vec<String>, bool) {
    let mut heads: Vec<String> = Vec::new();
    let mut at_open = false;
    let mut expect_head = false;
    for t in tokens(text) {
        if t.lo >= offset {
            break;
        }
        at_open = false;
        match t.kind {
            TokenKind::Open => {
                heads.push(String::new());
                expect_head = true;
                at_open = t.hi == offset;
                continue;
            }
            TokenKind::Close => {
                heads.pop();
            }
            TokenKind::Atom if expect_head => {
                if t.hi >= offset {
                    // The cursor is in the head being written.
                    at_open = true;
                } else if let Some(h) = heads.last_mut() {
                    *h = text[t.lo..t.hi].to_string();
                }
            }
            _ => {}
        }
        expect_head = false;
    }
    (heads, at_open)
}

/// Completion at a byte: the keywords of the form being written after a `(`, the macros (with
/// their `$1..$n` as placeholders, the standard library's too), and the names in scope.
pub fn completion(a: &Analysis, text: &str, offset: usize) -> Vec<CompletionItem> {
    let (heads, at_open) = context(text, offset);
    let mut items = Vec::new();
    let keyword = |label: &str, detail: &str| CompletionItem {
        label: label.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        detail: Some(detail.to_string()),
        ..Default::default()
    };
    // The forms around the cursor, without the one whose head is being written.
    let around = &heads[..heads.len() - usize::from(at_open && !heads.is_empty())];
    let in_program = around
        .iter()
        .any(|h| matches!(h.as_str(), "moves" | "drops" | "after-move" | "define"));
    // The instructions and conditions of move programs (with the conditions' `not-` forms).
    let program = if in_program {
        keywords::words(keywords::PROGRAM, true)
    } else {
        Vec::new()
    };
    if at_open {
        // The keywords of the form the new one is written in (the top level's outside all).
        let direct = around.last().map_or("", String::as_str);
        let forms = keywords::words(keywords::inside(direct), false);
        items.extend(forms.iter().map(|(w, _)| keyword(w, "keyword")));
        if in_program {
            items.extend(program.iter().map(|(w, _)| keyword(w, "move program")));
        }
        macros(a, &mut items);
    } else {
        if in_program {
            items.extend(program.iter().map(|(w, _)| keyword(w, "move program")));
        }
        for (kind, ck) in [
            (Kind::Direction, CompletionItemKind::ENUM_MEMBER),
            (Kind::Piece, CompletionItemKind::CLASS),
            (Kind::Zone, CompletionItemKind::MODULE),
            (Kind::Player, CompletionItemKind::CONSTANT),
            (Kind::Attribute, CompletionItemKind::PROPERTY),
            (Kind::Flag, CompletionItemKind::VARIABLE),
            (Kind::Position, CompletionItemKind::VALUE),
        ] {
            for n in a.index.of_kind(kind) {
                if items.len() >= MAX_COMPLETIONS {
                    break;
                }
                items.push(CompletionItem {
                    label: n.name.clone(),
                    kind: Some(ck),
                    detail: Some(kind.word().to_string()),
                    ..Default::default()
                });
            }
        }
    }
    items.truncate(MAX_COMPLETIONS);
    items
}

/// The macros of the load and of the whole standard library, each with placeholders.
fn macros(a: &Analysis, items: &mut Vec<CompletionItem>) {
    let mut seen = std::collections::HashSet::new();
    let mut add = |name: &str, body: &str, from: &str| {
        if !seen.insert(name.to_string()) {
            return;
        }
        let n = highest_param(body);
        let args: Vec<String> = (1..=n).map(|i| format!("${{{i}:${i}}}")).collect();
        let insert = if n == 0 {
            name.to_string()
        } else {
            format!("{name} {}", args.join(" "))
        };
        items.push(CompletionItem {
            label: name.to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(format!("macro, {n} argument(s), {from}")),
            insert_text: Some(insert),
            insert_text_format: Some(InsertTextFormat::SNIPPET),
            ..Default::default()
        });
    };
    for n in a.index.of_kind(Kind::Macro) {
        let body = n.defs.first().map_or("", |&s| {
            let text = &a.map.file(s.file).text;
            let end = text[s.hi as usize..]
                .find("\n(")
                .map_or(text.len(), |e| s.hi as usize + e);
            &text[s.hi as usize..end]
        });
        let from = n
            .defs
            .first()
            .map_or(String::new(), |&s| a.map.file(s.file).name.clone());
        add(&n.name, body, &from);
    }
    for (file, text) in zrf::stdlib::FILES {
        let (forms, _) = zrf::syntax::parse_file(zrf::source::FileId(0), text);
        for f in forms.iter().filter(|f| f.head() == Some("define")) {
            let Some(name) = f.list().and_then(|l| l.get(1)).and_then(|n| n.sym()) else {
                continue;
            };
            add(name, &f.to_string(), &format!("(include \"{file}\")"));
        }
    }
}

/// The highest `$N` in a text.
fn highest_param(text: &str) -> usize {
    let mut most = 0;
    for (i, _) in text.match_indices('$') {
        let digits: String = text[i + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(n) = digits.parse::<usize>() {
            most = most.max(n.min(99));
        }
    }
    most
}

/// The document's outline: games and variants with their pieces, and macros.
pub fn symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    a.index
        .outlines
        .get(&a.root)
        .map_or(Vec::new(), |o| o.iter().map(|x| symbol(a, x)).collect())
}

#[allow(deprecated)]
fn symbol(a: &Analysis, o: &Outline) -> DocumentSymbol {
    let mut range = a.range(o.span);
    let selection = a.range(o.name_span);
    if selection.start < range.start || selection.end > range.end {
        range = selection;
    }
    DocumentSymbol {
        name: if o.name.is_empty() {
            o.what.into()
        } else {
            o.name.clone()
        },
        detail: Some(o.what.to_string()),
        kind: match o.what {
            "macro" => SymbolKind::FUNCTION,
            "piece" => SymbolKind::CLASS,
            _ => SymbolKind::NAMESPACE,
        },
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: (!o.children.is_empty())
            .then(|| o.children.iter().map(|c| symbol(a, c)).collect()),
    }
}

/// The semantic token types, in the order their indexes refer to.
pub const TOKEN_TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::COMMENT,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::MACRO,
    SemanticTokenType::CLASS,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
];

/// Every token of the document, classified: comments, strings, numbers, keywords (the head of
/// a form that names nothing declared), macros, pieces, directions, zones, other names,
/// `$N` parameters.
pub fn semantic_tokens(a: &Analysis, text: &str, lines: &LineIndex) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let (mut line, mut col) = (0u32, 0u32);
    let mut after_open = false;
    for t in tokens(text) {
        let slice = &text[t.lo..t.hi];
        let ty = match t.kind {
            TokenKind::Open => {
                after_open = true;
                continue;
            }
            TokenKind::Close => {
                after_open = false;
                continue;
            }
            TokenKind::Comment => Some(0),
            TokenKind::Str | TokenKind::OpenStr => Some(1),
            TokenKind::Atom => {
                let named = a
                    .index
                    .at(a.root, t.lo)
                    .filter(|(_, s)| s.lo as usize == t.lo);
                match named.map(|(n, _)| n.kind) {
                    Some(Kind::Macro) => Some(4),
                    Some(Kind::Piece) => Some(5),
                    Some(Kind::Direction) => Some(6),
                    Some(Kind::Zone) => Some(7),
                    Some(_) => Some(8),
                    None if slice.starts_with('$') => Some(9),
                    None if zrf::syntax::parse_int(slice).is_some() => Some(2),
                    None if after_open => Some(3),
                    None => None,
                }
            }
        };
        after_open = false;
        let Some(ty) = ty else { continue };
        // A token over several lines (a string) is sent line by line.
        let mut lo = t.lo;
        while lo < t.hi {
            let end = text[lo..t.hi].find('\n').map_or(t.hi, |i| lo + i);
            let start = lines.position(text, lo);
            let len: u32 = text[lo..end].chars().map(|c| c.len_utf16() as u32).sum();
            if len > 0 {
                let delta_line = start.line - line;
                let delta_start = if delta_line == 0 {
                    start.character - col
                } else {
                    start.character
                };
                out.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: len,
                    token_type: ty,
                    token_modifiers_bitset: 0,
                });
                (line, col) = (start.line, start.character);
            }
            lo = end + 1;
        }
    }
    out
}

/// Lenses over each game and variant ("perft 1..3", "start position"), or over a tests file
/// ("run tests").
pub fn lenses(a: &Analysis, uri: &Uri, is_tests: bool) -> Vec<CodeLens> {
    let lens = |range, title: &str, command: &str, args: Vec<serde_json::Value>| CodeLens {
        range,
        command: Some(Command {
            title: title.to_string(),
            command: command.to_string(),
            arguments: Some(args),
        }),
        data: None,
    };
    let uri_arg = serde_json::Value::String(uri.as_str().to_string());
    if is_tests {
        let zero = lsp_types::Range::default();
        return vec![lens(zero, "run tests", "zrf.runTests", vec![uri_arg])];
    }
    let mut out = Vec::new();
    let games = a.index.outlines.get(&a.root).into_iter().flatten();
    for o in games.filter(|o| o.what == "game" || o.what == "variant") {
        let range = a.range(o.name_span);
        let args = vec![uri_arg.clone(), serde_json::json!(o.name)];
        out.push(lens(range, "perft 1..3", "zrf.perft", args.clone()));
        out.push(lens(range, "start position", "zrf.startPosition", args));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_is_the_open_forms() {
        let text = "(game (board (grid (";
        let (heads, at_open) = context(text, text.len());
        assert_eq!(heads, vec!["game", "board", "grid", ""]);
        assert!(at_open);
        let text = "(piece (moves (slide n";
        let (heads, at_open) = context(text, text.len());
        assert_eq!(heads, vec!["piece", "moves", "slide"]);
        assert!(!at_open);
    }

    #[test]
    fn parameters_are_counted() {
        assert_eq!(highest_param("($1 (verify empty?) $2 add) line-$3"), 3);
        assert_eq!(highest_param("(add)"), 0);
    }
}
