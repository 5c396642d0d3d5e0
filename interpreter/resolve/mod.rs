//! Resolution: one assembled game or variant (S-expressions) becomes a [`GameDef`] in which
//! every name is an id, with every error of the file reported at once.
//!
//! Lowering and resolving are one pass here because ZRF names are contextual: a bare symbol
//! in a move block is a direction or a position depending on the board, and an attribute
//! name doubles as a condition. Sub-modules: `board` (geometry), `program` (move and drop
//! blocks), `goals` (win, loss, draw and count conditions), `options`, `pieces`, `setup`
//! (placements and counters), `turns` (players, turn order, priorities, capture precedence).

mod board;
mod goals;
mod options;
mod pieces;
mod program;
mod setup;
mod turns;

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::def::*;
use crate::diagnostic::Diagnostic;
use crate::expand::GameSource;
use crate::source::Span;
use crate::suggest::NameIndex;
use crate::syntax::{Sexp, SexpKind};

/// Resolves one game or variant. Returns the definition when there were no errors.
pub fn resolve(src: &GameSource) -> (Option<GameDef>, Vec<Diagnostic>) {
    let mut cx = Cx::default();
    let def = cx.game(src);
    let ok = !cx.diags.kept.iter().any(Diagnostic::is_error) && cx.diags.dropped_errors == 0;
    (def.filter(|_| ok), cx.diags.finish())
}

/// The most diagnostics one resolve keeps; later ones are only counted (a file that sets up
/// a million pieces twice would otherwise take gigabytes of warnings).
pub const MAX_KEPT: usize = 10_000;

/// The diagnostics of one resolve: the first [`MAX_KEPT`] kept, the rest counted.
#[derive(Default)]
pub(crate) struct Diags {
    kept: Vec<Diagnostic>,
    dropped: usize,
    dropped_errors: usize,
    /// Where a dropped diagnostic is built, so callers can still fill it in.
    spare: Option<Diagnostic>,
}

impl Diags {
    /// Adds a diagnostic (or counts it, past [`MAX_KEPT`]) and returns it for filling in.
    pub fn push(&mut self, d: Diagnostic) -> &mut Diagnostic {
        if self.kept.len() < MAX_KEPT {
            self.kept.push(d);
            return self.kept.last_mut().expect("just pushed");
        }
        self.dropped += 1;
        if d.is_error() {
            self.dropped_errors += 1;
        }
        self.spare.insert(d)
    }

    /// True once no more diagnostics are kept: a new one is only counted, so nothing need
    /// be spent on its text (finding the nearest name for a suggestion, thousands of times
    /// in a file whose macros repeat one unknown name, took seconds).
    pub fn full(&self) -> bool {
        self.kept.len() >= MAX_KEPT
    }

    /// Number of diagnostics kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Counts of (dropped, dropped errors), for [`Cx::soft`].
    fn counts(&self) -> (usize, usize) {
        (self.dropped, self.dropped_errors)
    }

    /// The kept diagnostics, then one that counts the dropped ones.
    fn finish(mut self) -> Vec<Diagnostic> {
        if self.dropped > 0 {
            let span = self.kept.last().map(|d| d.primary.span).unwrap_or_default();
            let n = self.dropped;
            let mut d = Diagnostic::warning(span, format!("{n} more diagnostics were not kept"));
            if self.dropped_errors > 0 {
                d.severity = crate::diagnostic::Severity::Error;
                d.message = format!(
                    "{n} more diagnostics ({} errors) were not kept",
                    self.dropped_errors
                );
            }
            self.kept.push(
                d.with_code(crate::diagnostic::Code::TooManyDiagnostics)
                    .with_note(format!(
                        "zrf keeps the first {MAX_KEPT} diagnostics of a game"
                    )),
            );
        }
        self.kept
    }
}

/// Game-level keywords and what each takes, for "expected one of" messages.
const GAME_FORMS: &[&str] = crate::keywords::GAME;

/// Forms that only affect presentation; accepted and ignored.
const PRESENTATION_FORMS: &[&str] = crate::keywords::PRESENTATION;

/// The longest name (piece, player, position, label, direction...) a rules file may use, in
/// characters (docs/semantics.md, "Limits").
pub const MAX_NAME: usize = 256;

/// The most flag names (`set-flag`, `flag?`) a game may use.
pub const MAX_FLAGS: usize = 64;

/// The most entries of a board's direction table, players × directions × positions
/// (`Board::next`, two bytes each): past it the board is refused where its directions are
/// declared, before the table is built (docs/semantics.md, "Limits").
pub const MAX_LINK_TABLE: usize = 4_000_000;

/// A table of names (hashed with FxHash: resolving looks names up for nearly every atom of
/// a file, and SipHash was a tenth of loading big files).
pub(crate) type Names<V> = IndexMap<String, V, rustc_hash::FxBuildHasher>;

/// Name tables and the diagnostics collected so far.
#[derive(Default)]
pub(crate) struct Cx {
    pub diags: Diags,
    pub players: Names<PlayerId>,
    pub positions: Names<PosId>,
    /// Names removed by `kill-positions`.
    pub killed: std::collections::BTreeSet<String>,
    pub dirs: Names<DirId>,
    pub zones: Names<ZoneId>,
    pub pieces: Names<PieceId>,
    pub attrs: Names<AttrId>,
    pub flags: Names<FlagId>,
    pub move_types: Names<MoveTypeId>,
    pub counters: Names<u16>,
    pub counter_defs: Vec<CounterDef>,
    pub vars: Names<u16>,
    /// "Did you mean" over the positions, and the positions by lower-case name, built at the
    /// first unknown position (with the number of positions then, to notice a change).
    pub position_index: Option<(usize, NameIndex, HashMap<String, usize>)>,
    /// Some program asks `attacked?` or `defended?`.
    pub asks_attacked: bool,
    /// The nearest known name found for an unknown one, by the name and a hash of the
    /// known names it was searched among.
    pub suggested: std::cell::RefCell<rustc_hash::FxHashMap<(String, u64), Option<String>>>,
    /// Names given by `(move-type NAME)` in `moves` and `drops`.
    pub move_type_defs: rustc_hash::FxHashSet<String>,
    /// Move-type names used elsewhere (`move-priorities`, `turn-order`, `add-partial`,
    /// `attacked?`), where: checked against `move_type_defs` once the game is read.
    pub move_type_uses: Vec<(String, Span)>,
    /// Flag names set by `set-flag` (false) and `set-position-flag` (true).
    /// (Indexed by `position as usize`.)
    pub flag_sets: [rustc_hash::FxHashSet<String>; 2],
    /// Flag names read by `flag?` (false) and `position-flag?` (true), where.
    pub flag_reads: Vec<(String, bool, Span)>,
}

impl Cx {
    pub fn error(&mut self, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(span, msg))
    }

    pub fn warn(&mut self, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::warning(span, msg))
    }

    /// Runs `f`, turning the errors it reports into warnings that say what is ignored.
    ///
    /// Used where real Zillions-era files carry harmless mistakes (a setup square the board
    /// lacks, a zone for an undeclared player) that should not stop the game from loading.
    pub fn soft<T>(&mut self, ignored: &str, f: impl FnOnce(&mut Cx) -> Option<T>) -> Option<T> {
        let start = self.diags.len();
        let (_, errors_before) = self.diags.counts();
        let res = f(self);
        for d in &mut self.diags.kept[start..] {
            if d.is_error() {
                d.severity = crate::diagnostic::Severity::Warning;
                d.notes.push(format!("ignored: {ignored}"));
            }
        }
        // Errors dropped inside were warnings too.
        self.diags.dropped_errors = errors_before;
        res
    }

    /// An "unknown name" error of some kind, suggesting the nearest known name. It borrows
    /// the context only to read, so callers pass their name table's keys as they are (no
    /// copy of every known name per error) and push the result.
    pub fn unknown<'a>(
        &self,
        kind: &str,
        node: &Sexp,
        known: impl IntoIterator<Item = &'a String>,
    ) -> Diagnostic {
        let name = node.atom_text().unwrap_or_default();
        let d = Diagnostic::error(node.span, format!("unknown {kind} `{name}`"))
            .with_label(format!("no {kind} of this name is declared"));
        if self.diags.full() {
            return d;
        }
        let known: Vec<&str> = known.into_iter().map(String::as_str).collect();
        self.suggest(d, &name, &known)
    }

    /// `d` with "did you mean" the known name nearest to `name`. Nothing is searched once no
    /// more diagnostics are kept, and a name is searched once among the same known names:
    /// macros can repeat one unknown name thousands of times (a real Dakon version took 3 s,
    /// 80% of it finding the same suggestion again).
    pub fn suggest(&self, d: Diagnostic, name: &str, known: &[&str]) -> Diagnostic {
        if self.diags.full() {
            return d;
        }
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hash::hash(known, &mut h);
        let key = (name.to_string(), std::hash::Hasher::finish(&h));
        let best = self
            .suggested
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| {
                crate::suggest::nearest(name, known.iter().copied()).map(str::to_string)
            })
            .clone();
        match best {
            Some(best) => d.with_help(format!("did you mean `{best}`?")),
            None => d,
        }
    }

    /// Reports a wrong item: "expected X, found Y".
    pub fn expected(&mut self, node: &Sexp, what: &str) {
        let d = Diagnostic::error(
            node.span,
            format!("expected {what}, found {}", node.describe()),
        );
        self.diags.push(d);
    }

    /// Reports a form with too few items.
    pub fn missing(&mut self, form: &Sexp, what: &str, shape: &str) {
        let d = Diagnostic::error(form.span, format!("missing {what}"))
            .with_label(format!("expected `{shape}`"));
        self.diags.push(d);
    }

    /// The symbol, or an "expected" error; a name longer than [`MAX_NAME`] characters is
    /// refused (names are shown in tables and diagrams, padded to the longest).
    pub fn sym<'s>(&mut self, node: &'s Sexp, what: &str) -> Option<&'s str> {
        let s = node.sym();
        if s.is_none() {
            self.expected(node, what);
        }
        let s = s?;
        self.name_length(node.span, s, what)?;
        Some(s)
    }

    /// `Some(())` when `name` is at most [`MAX_NAME`] characters long, else an error at `span`.
    pub fn name_length(&mut self, span: Span, name: &str, what: &str) -> Option<()> {
        // No more bytes than the limit: no more characters either (the usual case, counted
        // without decoding).
        if name.len() <= MAX_NAME {
            return Some(());
        }
        let n = name.chars().count();
        if n <= MAX_NAME {
            return Some(());
        }
        self.error(span, format!("{what} is {n} characters long"))
            .notes
            .push(format!("names are limited to {MAX_NAME} characters"));
        None
    }

    /// The integer, or an "expected" error.
    pub fn int(&mut self, node: &Sexp, what: &str) -> Option<i64> {
        match &node.kind {
            SexpKind::Int(n) => Some(*n),
            SexpKind::Sym(s)
                if s.trim_start_matches(['-', '+'])
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    && s.parse::<i64>().is_ok() =>
            {
                s.parse().ok()
            }
            _ => {
                self.expected(node, what);
                None
            }
        }
    }

    /// The list items, or an "expected" error.
    pub fn list<'s>(&mut self, node: &'s Sexp, what: &str) -> Option<&'s [Sexp]> {
        let l = node.list();
        if l.is_none() {
            self.expected(node, what);
        }
        l
    }

    /// A text item: a string, or (leniently) any atom.
    pub fn text(&mut self, node: &Sexp, what: &str) -> Option<String> {
        let t = node.atom_text();
        if t.is_none() {
            self.expected(node, what);
        }
        t
    }

    pub fn player(&mut self, node: &Sexp) -> Option<PlayerId> {
        let name = self.sym(node, "a player name")?;
        match self.players.get(name) {
            Some(&id) => Some(id),
            None => {
                let d = self.unknown("player", node, self.players.keys());
                self.diags.push(d);
                None
            }
        }
    }

    pub fn piece(&mut self, node: &Sexp) -> Option<PieceId> {
        let name = self.sym(node, "a piece name")?;
        match self.pieces.get(name) {
            Some(&id) => Some(id),
            None => {
                let d = self.unknown("piece", node, self.pieces.keys());
                self.diags.push(d);
                None
            }
        }
    }

    pub fn position(&mut self, node: &Sexp) -> Option<PosId> {
        if let Some(&id) = node.sym().and_then(|n| self.positions.get(n)) {
            return Some(id);
        }
        let name = node.atom_text();
        match name.as_ref().and_then(|n| self.positions.get(n.as_str())) {
            Some(&id) => Some(id),
            None if name.is_none() => {
                self.expected(node, "a position name");
                None
            }
            None if self.killed.contains(name.as_deref().unwrap_or_default()) => {
                self.error(
                    node.span,
                    format!(
                        "position `{}` was removed by `kill-positions`",
                        name.unwrap_or_default()
                    ),
                );
                None
            }
            None => {
                let name = name.unwrap_or_default();
                if self
                    .position_index
                    .as_ref()
                    .is_none_or(|(n, _, _)| *n != self.positions.len())
                {
                    let index = NameIndex::new(self.positions.keys().map(String::as_str));
                    let mut lower = HashMap::new();
                    for (i, k) in self.positions.keys().enumerate().rev() {
                        lower.insert(k.to_lowercase(), i);
                    }
                    self.position_index = Some((self.positions.len(), index, lower));
                }
                let (_, index, lower) = self.position_index.as_ref().expect("just built");
                let same_case = lower
                    .get(&name.to_lowercase())
                    .and_then(|&i| self.positions.get_index(i))
                    .map(|(k, &v)| (k.clone(), v));
                if let Some((real, id)) = same_case {
                    self.warn(
                        node.span,
                        format!("position `{name}` is spelled `{real}` on the board"),
                    )
                    .primary
                    .text = format!("read as `{real}`");
                    return Some(id);
                }
                let hint = index.nearest(&name).map(str::to_string);
                let mut d = Diagnostic::error(node.span, format!("unknown position `{name}`"))
                    .with_label("no position of this name is declared");
                if let Some(best) = hint {
                    d = d.with_help(format!("did you mean `{best}`?"));
                }
                self.diags.push(d);
                None
            }
        }
    }

    pub fn zone(&mut self, node: &Sexp) -> Option<ZoneId> {
        let name = self.sym(node, "a zone name")?;
        match self.zones.get(name) {
            Some(&id) => Some(id),
            None => {
                let d = self.unknown("zone", node, self.zones.keys());
                self.diags.push(d);
                None
            }
        }
    }

    pub fn dir(&mut self, node: &Sexp) -> Option<DirId> {
        let name = self.sym(node, "a direction name")?;
        match self.dirs.get(name) {
            Some(&id) => Some(id),
            None => {
                let d = self.unknown("direction", node, self.dirs.keys());
                self.diags.push(d);
                None
            }
        }
    }

    /// Interns a move-type name used at `span` other than by `(move-type NAME)`: it must be
    /// given by some block's `(move-type NAME)` ([`Cx::check_declared_by_use`]).
    pub fn move_type_use(&mut self, name: &str, span: Span) -> MoveTypeId {
        self.move_type_uses.push((name.to_string(), span));
        self.move_type(name)
    }

    /// Reports move types used but given to no block, and flags read but never set: the
    /// priority, turn or test that names them can never apply, which is most often a typo.
    /// A move type is a warning, since real Zillions files name types no block has (turns
    /// restricted to a `setup` type, `add-partial` of a type no piece gives); a flag is an
    /// error, since no file of the corpus reads a flag it never sets (docs/semantics.md).
    pub fn check_declared_by_use(&mut self) {
        let uses = std::mem::take(&mut self.move_type_uses);
        let mut defs: Vec<&String> = self.move_type_defs.iter().collect();
        defs.sort();
        let mut diags = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (name, span) in &uses {
            if self.move_type_defs.contains(name) || !seen.insert(name.as_str()) {
                continue;
            }
            let d = Diagnostic::warning(*span, format!("unknown move type `{name}`"))
                .with_label("no `(move-type ...)` in any piece's moves or drops gives this name")
                .suggest(name, defs.iter().map(|s| s.as_str()));
            diags.push(d);
        }
        let reads = std::mem::take(&mut self.flag_reads);
        let mut seen = std::collections::HashSet::new();
        for (name, position, span) in &reads {
            let key = (name.clone(), *position);
            if self.flag_sets[*position as usize].contains(name) || !seen.insert(key) {
                continue;
            }
            let set = if *position {
                "set-position-flag"
            } else {
                "set-flag"
            };
            let mut set_names: Vec<&str> = self.flag_sets[*position as usize]
                .iter()
                .map(String::as_str)
                .collect();
            set_names.sort();
            let d = Diagnostic::warning(*span, format!("the flag `{name}` is never set"))
                .with_label(format!("no `{set}` in the game names this flag"))
                .suggest(name, set_names);
            diags.push(d);
        }
        for d in diags {
            self.diags.push(d);
        }
    }

    /// Interns a move-type name (move types are declared by use).
    pub fn move_type(&mut self, name: &str) -> MoveTypeId {
        let n = self.move_types.len();
        *self
            .move_types
            .entry(name.to_string())
            .or_insert(MoveTypeId(n as u16))
    }

    /// Interns the name of a flag set or read by `set-flag` / `flag?`, which a block run keeps
    /// in one 64-bit word: a name that would be the 65th is refused where it stands.
    pub fn plain_flag(&mut self, node: &Sexp, name: &str) -> Option<FlagId> {
        let f = self.flag(name);
        if (f.0 as usize) < MAX_FLAGS {
            return Some(f);
        }
        self.error(
            node.span,
            format!("too many flags: `{name}` is flag number {}", f.0 + 1),
        )
        .notes
        .push(format!(
            "a game may use at most {MAX_FLAGS} flag names (position flags count too)"
        ));
        None
    }

    /// Interns a flag name (flags are declared by use).
    /// Notes that a program sets the flag `name` (a position flag when `position`).
    pub fn flag_set(&mut self, name: &str, position: bool) {
        let set = &mut self.flag_sets[position as usize];
        if !set.contains(name) {
            set.insert(name.to_string());
        }
    }

    pub fn flag(&mut self, name: &str) -> FlagId {
        if let Some(&f) = self.flags.get(name) {
            return f;
        }
        let n = self.flags.len();
        *self
            .flags
            .entry(name.to_string())
            .or_insert(FlagId(n as u16))
    }

    fn game(&mut self, src: &GameSource) -> Option<GameDef> {
        let mut by_head: IndexMap<&str, Vec<&Sexp>> = IndexMap::new();
        for form in &src.forms {
            let head = form.head().unwrap_or("");
            by_head.entry(head).or_default().push(form);
        }
        let get = |k: &str| by_head.get(k).map(|v| v.as_slice()).unwrap_or(&[]);
        let text = |cx: &mut Cx, k: &str| -> String {
            let Some(form) = get(k).last() else {
                return String::new();
            };
            let items = form.list().unwrap_or_default();
            let parts: Vec<String> = items[1..]
                .iter()
                .filter_map(|it| cx.text(it, "a text string"))
                .collect();
            parts.join(" ")
        };

        for form in &src.forms {
            let head = form.head().unwrap_or("");
            if GAME_FORMS.contains(&head)
                || PRESENTATION_FORMS.contains(&head)
                || options::is_legacy(head)
            {
                continue;
            }
            let list: Vec<&str> = GAME_FORMS.to_vec();
            let d =
                Diagnostic::warning(form.span, format!("unknown game form `{head}` is ignored"))
                    .with_label(format!("expected one of {} in `(game ...)`", quoted(&list)))
                    .suggest(
                        head,
                        list.iter().copied().chain(options::LEGACY.iter().copied()),
                    );
            self.diags.push(d);
        }
        if let Some(engine) = get("engine").first() {
            let what = engine
                .list()
                .and_then(|l| l.get(1))
                .and_then(Sexp::atom_text)
                .unwrap_or_default();
            self.error(
                engine.span,
                "this game needs an external engine that zrf does not run",
            )
            .primary
            .text = format!(
                "`{what}` holds the real rules; the rules file alone does not describe the game"
            );
        }

        let title = src.title.clone();
        let description = text(self, "description");
        let history = text(self, "history");
        let strategy = text(self, "strategy");

        let players = self.players_form(get("players"), src.span);
        for form in get("counter") {
            self.counter_form(form);
        }
        for form in get("piece") {
            self.declare_piece(form);
        }
        let board = match get("board") {
            [] => {
                self.error(src.span, "this game has no board").primary.text =
                    "expected a `(board ...)` form".into();
                None
            }
            [one, rest @ ..] => {
                for extra in rest {
                    self.error(extra.span, "a game has one `board`")
                        .primary
                        .text = "second board".into();
                }
                board::resolve_board(self, one, players.len())
            }
        };
        let board = board.unwrap_or_else(|| board::empty_board(players.len()));
        let mut pieces: Vec<Option<PieceDef>> = vec![None; self.pieces.len()];
        for form in get("piece") {
            let def = self.piece_form(form);
            if let Some(&id) = self.pieces.get(&def.name) {
                pieces[id.idx()] = Some(def);
            }
        }
        let pieces: Vec<PieceDef> = pieces.into_iter().flatten().collect();
        // Pieces never declared but used by programs would already be errors; keep ids dense.
        let mut after_move = Vec::new();
        for form in get("after-move") {
            after_move.extend(program::resolve_instrs(
                self,
                form.list().and_then(|l| l.get(1..)).unwrap_or_default(),
            ));
        }
        let setup = self.setup_forms(get("board-setup"));
        let turn_order = self.turn_order(get("turn-order"), players.len());
        let move_priorities = self.priorities(get("move-priorities"));
        let opts = options::resolve_options(self, &src.forms);
        let mut goals_out = Vec::new();
        // Goals in the order of their forms in the game (which file or macro wrote them
        // does not reorder them).
        const GOAL_FORMS: [&str; 4] = [
            "win-condition",
            "loss-condition",
            "draw-condition",
            "count-condition",
        ];
        for form in &src.forms {
            if GOAL_FORMS.contains(&form.head().unwrap_or("")) {
                if let Some(g) = goals::resolve_goal(self, form) {
                    goals_out.push(g);
                }
            }
        }
        let capture_precedence = match get("capture-precedence").last() {
            Some(form) => self.precedence(form),
            None => Vec::new(),
        };
        self.check_declared_by_use();
        Some(GameDef {
            title,
            description,
            history,
            strategy,
            players,
            turn_order,
            board,
            pieces,
            setup,
            move_types: self.move_types.keys().cloned().collect(),
            move_priorities,
            options: opts,
            goals: goals_out,
            capture_precedence,
            counters: std::mem::take(&mut self.counter_defs),
            after_move,
            vars: self.vars.keys().cloned().collect(),
            attributes: self.attrs.keys().cloned().collect(),
            flags: self.flags.keys().cloned().collect(),
            asks_attacked: self.asks_attacked,
        })
    }
}

/// `a`, `b` and `c` → "`a`, `b`, `c`".
pub(crate) fn quoted(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
