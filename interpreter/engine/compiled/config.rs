//! Which fast paths the engine takes beside the plain tree.
//!
//! The plain tree (each block's `Instr`/`Cond` program walked by `exec/`, every move written
//! with its ops in the arenas, `after-move` run by the interpreter, every move played to test
//! royal safety) is the definition of what a rules file does. Each fast path computes the same
//! thing another way: for every position, the legal moves (with their ops, paths and captures),
//! and the position after each move, are the same with any set of paths on (the `paths` test
//! switches them on one at a time against the plain tree; the `paths` fuzz target does the same
//! on generated rules files). `Rules::with_config` builds the tables of the paths it is given;
//! `Rules::new` takes them all.

/// One fast path of the engine (a field of [`EngineConfig`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FastPath {
    /// Each block's specialised tree (`special/`: fused steps, tests, leaps, slides and adds)
    /// walked instead of its plain program.
    Tree,
    /// Generation reads the gate rows (`gates.rs`: each block's gate square and test per
    /// player, piece type and start square, decided at load) instead of the lists of blocks.
    GateRows,
    /// Straight blocks (`special/straight.rs`) run with no run set up, their adds written
    /// directly (`Exec::run_straight`).
    Straight,
    /// A gate row whose block only adds one simple move writes it from the row
    /// (`gates::RowFlags::SIMPLE`).
    Simple,
    /// A gate row of the draughts jump's shape writes its capture from the row
    /// (`gates::RowFlags::JUMP`).
    Jump,
    /// Drop blocks whose prefix tests only the square dropped on are answered from masks, and
    /// a drop that then only adds is written directly (`special/drops.rs`, `Exec::emit_drop`).
    DropMasks,
    /// An `add` whose move is one piece going to one square, capturing at most what stands
    /// there and the block's captures, is written by `Exec::emit_simple` (a simple move whole
    /// in its header, `Move::simple`), not by the general `emit`.
    SimpleMoves,
    /// A partial step that no continuation can follow is decided from the gate rows without
    /// playing it (`Gen::ends_unplayed`).
    ChainEnds,
    /// A list of moves that generation shows to hold no two equal moves skips the duplicate
    /// check (`Scratch::note_group`).
    Distinct,
    /// A plain `after-move` program (`if`s and counter settings) compiled and run without the
    /// interpreter (`after/`).
    AfterMove,
    /// An `after-move` program that is the fifty-move clock idiom played as one counter op
    /// (`after/clock.rs`).
    Clock,
    /// Royal safety proven from the attack tables without playing the move (`legal.rs`).
    Legality,
    /// A gate row whose block is a plain slide, on a board of at most 64 squares, answered
    /// over square sets: the nearest piece on its ray found from a mask of the occupied
    /// squares (`rays.rs`).
    Rays,
    /// On boards of at most 64 squares, the generation loop of the gate rows finds the
    /// mover's pieces, and the `rays` path the occupied squares, in the position's square
    /// sets of each owner's pieces (`Position::owned`, kept up to date by every write)
    /// instead of scanning the cells.
    PieceSets,
    /// The last level of bulk perft counts the legal moves of a position without writing
    /// them where it can (`compiled/count.rs`, `Rules::count_legal`): the gates of the rows
    /// that are plain leaps (`SIMPLE`) or plain slides (`RAY`) are counted over square sets,
    /// restricted by royal safety's examination; the other gates' moves are generated and
    /// filtered as before, and counted.
    Count,
}

impl FastPath {
    /// Every fast path, in the order of [`EngineConfig`]'s fields.
    pub const ALL: [FastPath; 15] = [
        FastPath::Tree,
        FastPath::GateRows,
        FastPath::Straight,
        FastPath::Simple,
        FastPath::Jump,
        FastPath::DropMasks,
        FastPath::SimpleMoves,
        FastPath::ChainEnds,
        FastPath::Distinct,
        FastPath::AfterMove,
        FastPath::Clock,
        FastPath::Legality,
        FastPath::Rays,
        FastPath::PieceSets,
        FastPath::Count,
    ];

    /// The path's name, as in tables and test messages.
    pub fn name(self) -> &'static str {
        match self {
            FastPath::Tree => "tree",
            FastPath::GateRows => "gate-rows",
            FastPath::Straight => "straight",
            FastPath::Simple => "simple",
            FastPath::Jump => "jump",
            FastPath::DropMasks => "drop-masks",
            FastPath::SimpleMoves => "simple-moves",
            FastPath::ChainEnds => "chain-ends",
            FastPath::Distinct => "distinct",
            FastPath::AfterMove => "after-move",
            FastPath::Clock => "clock",
            FastPath::Legality => "legality",
            FastPath::Rays => "rays",
            FastPath::PieceSets => "piece-sets",
            FastPath::Count => "count",
        }
    }

    /// The paths this one is built on: it is taken only when they are on too
    /// ([`EngineConfig::effective`]).
    pub fn needs(self) -> &'static [FastPath] {
        match self {
            // The straight runner and the rows walk the specialised tree past the gate.
            FastPath::GateRows | FastPath::Straight => &[FastPath::Tree],
            FastPath::Simple
            | FastPath::Jump
            | FastPath::ChainEnds
            | FastPath::Rays
            | FastPath::PieceSets => &[FastPath::Tree, FastPath::GateRows],
            // Counting reads the rows' `SIMPLE` and `RAY` marks and royal safety's square sets,
            // and leaves the counted gates out of the rows' loop over the mover's square set.
            FastPath::Count => &[
                FastPath::Tree,
                FastPath::GateRows,
                FastPath::Simple,
                FastPath::Rays,
                FastPath::Legality,
                FastPath::PieceSets,
            ],
            _ => &[],
        }
    }
}

/// Which fast paths the engine takes: one flag per [`FastPath`], applied when the rules are
/// built (`Rules::with_config`). The default takes them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// [`FastPath::Tree`].
    pub tree: bool,
    /// [`FastPath::GateRows`].
    pub gate_rows: bool,
    /// [`FastPath::Straight`].
    pub straight: bool,
    /// [`FastPath::Simple`].
    pub simple: bool,
    /// [`FastPath::Jump`].
    pub jump: bool,
    /// [`FastPath::DropMasks`].
    pub drop_masks: bool,
    /// [`FastPath::SimpleMoves`].
    pub simple_moves: bool,
    /// [`FastPath::ChainEnds`].
    pub chain_ends: bool,
    /// [`FastPath::Distinct`].
    pub distinct: bool,
    /// [`FastPath::AfterMove`].
    pub after_move: bool,
    /// [`FastPath::Clock`].
    pub clock: bool,
    /// [`FastPath::Legality`].
    pub legality: bool,
    /// [`FastPath::Rays`].
    pub rays: bool,
    /// [`FastPath::PieceSets`].
    pub piece_sets: bool,
    /// [`FastPath::Count`].
    pub count: bool,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig::all()
    }
}

impl EngineConfig {
    /// Every fast path on (the default).
    pub const fn all() -> EngineConfig {
        EngineConfig {
            tree: true,
            gate_rows: true,
            straight: true,
            simple: true,
            jump: true,
            drop_masks: true,
            simple_moves: true,
            chain_ends: true,
            distinct: true,
            after_move: true,
            clock: true,
            legality: true,
            rays: true,
            piece_sets: true,
            count: true,
        }
    }

    /// Every fast path off: the plain tree alone, the reference the paths are checked against.
    pub const fn plain() -> EngineConfig {
        EngineConfig {
            tree: false,
            gate_rows: false,
            straight: false,
            simple: false,
            jump: false,
            drop_masks: false,
            simple_moves: false,
            chain_ends: false,
            distinct: false,
            after_move: false,
            clock: false,
            legality: false,
            rays: false,
            piece_sets: false,
            count: false,
        }
    }

    /// The plain tree with one path on, and the paths it needs ([`FastPath::needs`]).
    pub fn only(path: FastPath) -> EngineConfig {
        let mut c = EngineConfig::plain();
        for &p in path.needs() {
            c.set(p, true);
        }
        c.with(path, true)
    }

    /// Whether a path is on.
    pub fn get(&self, path: FastPath) -> bool {
        match path {
            FastPath::Tree => self.tree,
            FastPath::GateRows => self.gate_rows,
            FastPath::Straight => self.straight,
            FastPath::Simple => self.simple,
            FastPath::Jump => self.jump,
            FastPath::DropMasks => self.drop_masks,
            FastPath::SimpleMoves => self.simple_moves,
            FastPath::ChainEnds => self.chain_ends,
            FastPath::Distinct => self.distinct,
            FastPath::AfterMove => self.after_move,
            FastPath::Clock => self.clock,
            FastPath::Legality => self.legality,
            FastPath::Rays => self.rays,
            FastPath::PieceSets => self.piece_sets,
            FastPath::Count => self.count,
        }
    }

    /// Turns one path on or off.
    pub fn set(&mut self, path: FastPath, on: bool) {
        let flag = match path {
            FastPath::Tree => &mut self.tree,
            FastPath::GateRows => &mut self.gate_rows,
            FastPath::Straight => &mut self.straight,
            FastPath::Simple => &mut self.simple,
            FastPath::Jump => &mut self.jump,
            FastPath::DropMasks => &mut self.drop_masks,
            FastPath::SimpleMoves => &mut self.simple_moves,
            FastPath::ChainEnds => &mut self.chain_ends,
            FastPath::Distinct => &mut self.distinct,
            FastPath::AfterMove => &mut self.after_move,
            FastPath::Clock => &mut self.clock,
            FastPath::Legality => &mut self.legality,
            FastPath::Rays => &mut self.rays,
            FastPath::PieceSets => &mut self.piece_sets,
            FastPath::Count => &mut self.count,
        };
        *flag = on;
    }

    /// This configuration with one path turned on or off.
    pub fn with(mut self, path: FastPath, on: bool) -> EngineConfig {
        self.set(path, on);
        self
    }

    /// The paths actually taken: each one on whose needed paths are on too.
    pub fn effective(self) -> EngineConfig {
        let mut c = self;
        for p in FastPath::ALL {
            if p.needs().iter().any(|&n| !self.get(n)) {
                c.set(p, false);
            }
        }
        c
    }

    /// The names of the paths on, separated by commas (`plain` when none is).
    pub fn describe(&self) -> String {
        let on: Vec<&str> = (FastPath::ALL.iter())
            .filter(|&&p| self.get(p))
            .map(|p| p.name())
            .collect();
        if on.is_empty() {
            "plain".to_string()
        } else {
            on.join(",")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_path_brings_what_it_needs_and_nothing_else() {
        let c = EngineConfig::only(FastPath::Jump);
        assert_eq!(c.describe(), "tree,gate-rows,jump");
        assert_eq!(c.effective(), c);
        // Without its tree, the rows are not taken.
        let rows = EngineConfig::plain().with(FastPath::GateRows, true);
        assert_eq!(rows.effective(), EngineConfig::plain());
        assert_eq!(EngineConfig::all().effective(), EngineConfig::all());
        assert_eq!(EngineConfig::plain().describe(), "plain");
        for p in FastPath::ALL {
            assert!(EngineConfig::only(p).get(p), "{}", p.name());
            assert!(!EngineConfig::all().with(p, false).get(p));
        }
    }
}
