//! The names a rules file declares and where each is written: definitions and references of
//! macros, pieces, directions, zones, positions, players, attributes and flags, across the
//! file's includes and the embedded standard library, for editors (go to definition, find
//! references, rename, completion, outline).
//!
//! The index is built from the text as written (every file of a load, read again without
//! expansion), so each place is a span in user text; the resolved game, when there is one,
//! adds the grid positions, which no text spells out.

use rustc_hash::FxHashMap;

use crate::def::GameDef;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::{parse_file, Sexp, SexpKind};

/// What a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A `(define NAME ...)` macro.
    Macro,
    /// A piece type.
    Piece,
    /// A direction of the board.
    Direction,
    /// A zone.
    Zone,
    /// A position (a square).
    Position,
    /// A player.
    Player,
    /// A piece attribute.
    Attribute,
    /// A flag of the move programs.
    Flag,
}

impl Kind {
    /// The word for the kind ("macro", "piece", ...).
    pub fn word(self) -> &'static str {
        match self {
            Kind::Macro => "macro",
            Kind::Piece => "piece",
            Kind::Direction => "direction",
            Kind::Zone => "zone",
            Kind::Position => "position",
            Kind::Player => "player",
            Kind::Attribute => "attribute",
            Kind::Flag => "flag",
        }
    }
}

/// The kinds a bare symbol is tried as, in order, when it is not a macro call.
const ORDER: [Kind; 7] = [
    Kind::Piece,
    Kind::Direction,
    Kind::Zone,
    Kind::Player,
    Kind::Attribute,
    Kind::Flag,
    Kind::Position,
];

/// One declared name.
#[derive(Clone, Debug)]
pub struct Name {
    /// What it is.
    pub kind: Kind,
    /// How it is spelled.
    pub name: String,
    /// Where it is declared (a name may be declared more than once, as a zone per player).
    pub defs: Vec<Span>,
    /// Where it is used (declarations not included).
    pub refs: Vec<Span>,
}

/// An outline entry: a game, a variant, a piece or a macro of one file.
#[derive(Clone, Debug)]
pub struct Outline {
    /// "game", "variant", "piece" or "macro".
    pub what: &'static str,
    /// Its title or name.
    pub name: String,
    /// The whole form.
    pub span: Span,
    /// The name (or title) inside it.
    pub name_span: Span,
    /// Entries inside it (pieces inside a game).
    pub children: Vec<Outline>,
}

/// The names of a load and every place they are written.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Every name.
    pub names: Vec<Name>,
    by_name: FxHashMap<String, Vec<usize>>,
    /// Each occurrence, definition or use: (file, lo, hi, name index), sorted.
    places: Vec<(FileId, u32, u32, usize)>,
    /// The outline of each file, by file id.
    pub outlines: FxHashMap<FileId, Vec<Outline>>,
}

impl Index {
    /// The name of kind `kind` spelled `name`.
    pub fn get(&self, kind: Kind, name: &str) -> Option<&Name> {
        self.by_name
            .get(name)?
            .iter()
            .map(|&i| &self.names[i])
            .find(|n| n.kind == kind)
    }

    /// The name written at a byte of a file, and the span of that occurrence.
    pub fn at(&self, file: FileId, offset: usize) -> Option<(&Name, Span)> {
        let offset = offset as u32;
        let i = self
            .places
            .partition_point(|&(f, lo, _, _)| (f, lo) <= (file, offset));
        let &(f, lo, hi, n) = self.places.get(i.checked_sub(1)?)?;
        (f == file && offset <= hi)
            .then(|| (&self.names[n], Span::new(f, lo as usize, hi as usize)))
    }

    /// Every name of a kind.
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Name> {
        self.names.iter().filter(move |n| n.kind == kind)
    }

    fn add(&mut self, kind: Kind, name: &str) -> usize {
        if let Some(&i) = self
            .by_name
            .get(name)
            .and_then(|v| v.iter().find(|&&i| self.names[i].kind == kind))
        {
            return i;
        }
        self.names.push(Name {
            kind,
            name: name.to_string(),
            defs: Vec::new(),
            refs: Vec::new(),
        });
        let i = self.names.len() - 1;
        self.by_name.entry(name.to_string()).or_default().push(i);
        i
    }

    fn define(&mut self, kind: Kind, node: &Sexp) {
        if let Some(text) = node.sym() {
            let i = self.add(kind, text);
            self.names[i].defs.push(node.span);
        }
    }
}

/// A rules file read for an editor: every file of the load, its games and variants, the
/// default game resolved (when it resolves), every diagnostic of every stage, and the index.
pub struct Analysed {
    /// Every file read, the root first.
    pub map: SourceMap,
    /// The root file.
    pub root: FileId,
    /// Its games and variants, expanded.
    pub games: Vec<crate::expand::GameSource>,
    /// The default game, resolved.
    pub def: Option<GameDef>,
    /// Every diagnostic, tidied as `zrf check` shows them.
    pub diags: Vec<crate::diagnostic::Diagnostic>,
    /// The names and their places.
    pub index: Index,
}

/// Loads a rules file, resolves every game and variant for its diagnostics, keeps the default
/// game and indexes the names; `loader` supplies includes.
pub fn analyse(name: &str, bytes: &[u8], loader: &dyn crate::expand::Loader) -> Analysed {
    let loaded = crate::load(name, bytes, loader);
    let mut diags = loaded.diags;
    let default = crate::summary::default_index(&loaded.games);
    let mut def = None;
    for (i, g) in loaded.games.iter().enumerate() {
        let (d, more) = crate::resolve_game(g);
        diags.extend(more);
        if i == default {
            def = d;
        }
    }
    crate::tidy(&loaded.map, &mut diags);
    let index = index(&loaded.map, def.as_ref());
    Analysed {
        map: loaded.map,
        root: loaded.root,
        games: loaded.games,
        def,
        diags,
        index,
    }
}

/// Builds the index of every file of `map` (a load's files: the rules file, its includes, the
/// standard library files it read). `def`, the resolved game, adds grid positions, declared by
/// the `dimensions` of their grid.
pub fn index(map: &SourceMap, def: Option<&GameDef>) -> Index {
    let mut ix = Index::default();
    let trees: Vec<Vec<Sexp>> = (0..map.files().len())
        .map(|i| parse_file(FileId(i as u32), &map.files()[i].text).0)
        .collect();
    let mut dimensions = Vec::new();
    for (i, forms) in trees.iter().enumerate() {
        let mut outline = Vec::new();
        for form in forms {
            declarations(&mut ix, form, &mut dimensions);
            if let Some(o) = outline_of(form) {
                outline.push(o);
            }
        }
        ix.outlines.insert(FileId(i as u32), outline);
    }
    if let Some(def) = def {
        for p in &def.board.positions {
            if let Some((grid, _)) = p.grid {
                if ix.get(Kind::Position, &p.name).is_none() {
                    let i = ix.add(Kind::Position, &p.name);
                    if let Some(&span) = dimensions.get(grid as usize) {
                        ix.names[i].defs.push(span);
                    }
                }
            }
        }
        // Names the game declares through macros that paste them (`line-$1`), so the text
        // spells them nowhere whole: known without a place of definition.
        let lists: [(Kind, Vec<&str>); 5] = [
            (
                Kind::Piece,
                def.pieces.iter().map(|p| p.name.as_str()).collect(),
            ),
            (
                Kind::Direction,
                def.board.directions.iter().map(String::as_str).collect(),
            ),
            (
                Kind::Zone,
                def.board.zones.iter().map(|z| z.name.as_str()).collect(),
            ),
            (
                Kind::Player,
                def.players.iter().map(|p| p.name.as_str()).collect(),
            ),
            (
                Kind::Attribute,
                def.attributes.iter().map(String::as_str).collect(),
            ),
        ];
        for (kind, names) in lists {
            for n in names {
                ix.add(kind, n);
            }
        }
    }
    for forms in &trees {
        for form in forms {
            uses(&mut ix, form);
        }
    }
    for n in &mut ix.names {
        n.refs.retain(|r| !n.defs.contains(r));
    }
    let mut places = Vec::new();
    for (i, n) in ix.names.iter().enumerate() {
        for s in n.defs.iter().chain(&n.refs) {
            places.push((s.file, s.lo, s.hi, i));
        }
    }
    places.sort_unstable();
    places.dedup_by_key(|p| (p.0, p.1));
    ix.places = places;
    ix
}

/// Records the declarations inside one top-level form (iteratively: forms may nest deeply).
fn declarations(ix: &mut Index, form: &Sexp, dimensions: &mut Vec<Span>) {
    if form.head() == Some("define") {
        if let Some(name) = form.list().and_then(|l| l.get(1)) {
            ix.define(Kind::Macro, name);
        }
    }
    let mut stack = vec![form];
    while let Some(node) = stack.pop() {
        let Some(items) = node.list() else { continue };
        let args = items.get(1..).unwrap_or_default();
        match node.head() {
            Some("piece") => {
                if let Some(name) = named(args) {
                    ix.define(Kind::Piece, name);
                }
            }
            Some("zone") => {
                if let Some(name) = named(args) {
                    ix.define(Kind::Zone, name);
                }
            }
            Some("players") => args.iter().for_each(|a| ix.define(Kind::Player, a)),
            Some("directions") => {
                for d in args {
                    if let Some(first) = d.list().and_then(|l| l.first()) {
                        ix.define(Kind::Direction, first);
                    }
                }
            }
            Some("links") => {
                if let Some(first) = args.first() {
                    ix.define(Kind::Direction, first);
                }
            }
            Some("positions") => {
                for p in args {
                    if let Some(first) = p.list().and_then(|l| l.first()) {
                        ix.define(Kind::Position, first);
                    }
                }
            }
            Some("attribute") => {
                if let Some(first) = args.first() {
                    ix.define(Kind::Attribute, first);
                }
            }
            Some("set-flag") => {
                if let Some(first) = args.first() {
                    if ix
                        .get(Kind::Flag, first.sym().unwrap_or_default())
                        .is_none()
                    {
                        ix.define(Kind::Flag, first);
                    }
                }
            }
            Some("dimensions") => dimensions.push(node.span),
            _ => {}
        }
        stack.extend(items.iter().rev());
    }
}

/// The `(name X)` among a form's items.
fn named(args: &[Sexp]) -> Option<&Sexp> {
    args.iter()
        .find(|a| a.head() == Some("name"))
        .and_then(|a| a.list()?.get(1))
}

/// Records every symbol that spells a known name.
fn uses(ix: &mut Index, form: &Sexp) {
    let mut stack: Vec<(&Sexp, bool)> = vec![(form, false)];
    while let Some((node, is_head)) = stack.pop() {
        match &node.kind {
            SexpKind::Sym(s) => {
                let Some(cands) = ix.by_name.get(&**s) else {
                    continue;
                };
                let pick = |k: Kind| cands.iter().copied().find(|&i| ix.names[i].kind == k);
                let found = is_head
                    .then(|| pick(Kind::Macro))
                    .flatten()
                    .or_else(|| ORDER.iter().find_map(|&k| pick(k)));
                if let Some(i) = found {
                    ix.names[i].refs.push(node.span);
                }
            }
            SexpKind::List(items) => {
                for (j, it) in items.iter().enumerate().rev() {
                    stack.push((it, j == 0));
                }
            }
            _ => {}
        }
    }
}

/// The outline entry of a top-level form, if it is a game, a variant or a macro.
fn outline_of(form: &Sexp) -> Option<Outline> {
    let items = form.list()?;
    let what = match form.head()? {
        "game" => "game",
        "variant" => "variant",
        "define" => {
            let name = items.get(1)?;
            return Some(Outline {
                what: "macro",
                name: name.sym()?.to_string(),
                span: form.span,
                name_span: name.span,
                children: Vec::new(),
            });
        }
        _ => return None,
    };
    let title = items.iter().find(|i| i.head() == Some("title"));
    let (name, name_span) = match title.and_then(|t| t.list()?.get(1)) {
        Some(t) => (t.atom_text().unwrap_or_default(), t.span),
        None => (format!("({what})"), items[0].span),
    };
    let children = items
        .iter()
        .filter(|i| i.head() == Some("piece"))
        .filter_map(|p| {
            let n = named(p.list()?.get(1..)?)?;
            Some(Outline {
                what: "piece",
                name: n.atom_text()?,
                span: p.span,
                name_span: n.span,
                children: Vec::new(),
            })
        })
        .collect();
    Some(Outline {
        what,
        name,
        span: form.span,
        name_span,
        children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expand::NoFiles;

    #[test]
    fn definitions_and_uses_across_an_included_file() {
        let text = "(include \"prelude.zrf\")\n(define go ($1 add))\n(game (title \"G\") (players A B)\n (board (grid (dimensions (\"a/b\" (1 0)) (\"2/1\" (0 1))) (directions (n 0 -1))))\n (piece (name P) (moves (go n)))\n (board-setup (A (P a1))))";
        let loaded = crate::load("g.zrf", text.as_bytes(), &NoFiles);
        let (def, _) = crate::resolve_game(&loaded.games[0]);
        let ix = index(&loaded.map, def.as_ref());
        let go = ix.get(Kind::Macro, "go").expect("the macro");
        assert_eq!(go.defs.len(), 1);
        assert_eq!(go.refs.len(), 1);
        let at = text.find("(go n)").expect("call") + 1;
        let (name, span) = ix.at(loaded.root, at + 1).expect("a name");
        assert_eq!((name.kind, span.lo as usize), (Kind::Macro, at));
        let n = ix.get(Kind::Direction, "n").expect("n");
        assert_eq!(n.refs.len(), 1);
        let a1 = ix.get(Kind::Position, "a1").expect("a1");
        assert_eq!(a1.refs.len(), 1);
        assert_eq!(a1.defs.len(), 1, "declared by the grid's dimensions");
        assert!(ix.get(Kind::Piece, "P").is_some_and(|p| p.refs.len() == 1));
        let outline = &ix.outlines[&loaded.root];
        assert_eq!(outline.len(), 2);
        assert_eq!(outline[1].children[0].name, "P");
    }
}
