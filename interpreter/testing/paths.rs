//! The engine's fast paths checked against the plain tree: one game's rules built with each
//! path alone ([`EngineConfig::only`]) and with none ([`EngineConfig::plain`]), compared
//! position by position (`tests/paths.rs` over the shipped games and the corpus, the `paths`
//! fuzz target over generated rules files).
//!
//! Moves are compared as their readers see them ([`MoveList::ops`], `path`, `captured`, the
//! header's other fields), not by where they are kept: a simple move is whole in its header,
//! which the plain tree never writes. Two writes of one square in a row count as the last one:
//! the plain tree writes the landing square, then the attribute an `add` sets on it, where the
//! fast paths write the landing cell with its attribute at once.

use crate::def::GameDef;
use crate::engine::{
    revert, Cell, EngineConfig, FastPath, Move, MoveList, Op, Picked, Position, Rules, UndoLog,
    Workspace,
};

/// A move as its readers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenMove {
    /// The header, with the arena bounds and the simple move's fields cleared.
    pub head: Move,
    /// The ops, two writes of one square in a row merged.
    pub ops: Vec<Op>,
    /// The path.
    pub path: Vec<u16>,
    /// The captured squares.
    pub captured: Vec<u16>,
}

/// The moves of a list as their readers see them.
pub fn seen(list: &MoveList) -> Vec<SeenMove> {
    list.moves.iter().map(|m| seen_move(list, m)).collect()
}

/// A move of a list as its readers see it.
pub fn seen_move(list: &MoveList, m: &Move) -> SeenMove {
    let mut ops: Vec<Op> = Vec::new();
    for &op in list.ops(m).iter() {
        match (ops.last_mut(), op) {
            (Some(Op::Set(p, c)), Op::Set(q, d)) if *p == q => *c = d,
            _ => ops.push(op),
        }
    }
    SeenMove {
        head: Move {
            op_lo: 0,
            op_hi: 0,
            path_lo: 0,
            path_hi: 0,
            cap_hi: 0,
            simple: false,
            sq: [0; 3],
            cell: Cell::EMPTY,
            ..*m
        },
        ops,
        path: list.path(m).to_vec(),
        captured: list.captured(m).to_vec(),
    }
}

/// One game's rules with every fast path alone, and with none.
pub struct PathRules {
    /// The plain tree, the reference.
    pub plain: Rules,
    /// Each path alone (with the paths it needs).
    pub paths: Vec<(FastPath, Rules)>,
}

/// What one position showed: the plain tree's moves were compared with every path's.
pub struct Compared {
    /// The number of legal moves.
    pub moves: usize,
    /// The position after the move picked, when there was one.
    pub after: Option<Position>,
}

impl PathRules {
    /// Builds the rules once (attack tables and trees), then configures a copy per path.
    pub fn new(def: GameDef) -> PathRules {
        let plain = Rules::with_config(def, EngineConfig::plain());
        let paths = (FastPath::ALL.iter())
            .map(|&p| {
                let mut rules = plain.clone();
                rules.configure(EngineConfig::only(p));
                (p, rules)
            })
            .collect();
        PathRules { plain, paths }
    }

    /// Compares every path with the plain tree at `pos`: the legal moves (op for op), the
    /// limits they reached, and, for the move `pick` chooses among them (given their
    /// number), the position it leaves and taking it back. `Err` names the first path that
    /// differs and how. With `cut_ok`, a position where the plain tree reached a limit is not
    /// compared (the specialised tree counts loop rounds only, so a runaway block may be cut
    /// a few instructions apart).
    pub fn compare(
        &self,
        pos: &Position,
        pick: impl FnOnce(usize) -> usize,
        cut_ok: bool,
    ) -> Result<Compared, String> {
        let mut ws = Workspace::default();
        let (mut a, mut b) = (MoveList::new(), MoveList::new());
        let mut p = pos.clone();
        self.plain.legal_moves_in(&mut ws, &mut p, &mut a);
        let want = seen(&a);
        let pick = (!a.is_empty()).then(|| pick(a.len()) % a.len());
        let mut log = UndoLog::new();
        let after = pick.map(|i| {
            let mut after = pos.clone();
            self.plain.make(&mut after, &a, &a.moves[i], &mut log);
            after
        });
        let skip = cut_ok && a.cut.is_some();
        for (path, rules) in &self.paths {
            if skip {
                break;
            }
            let name = path.name();
            let mut p = pos.clone();
            rules.legal_moves_in(&mut ws, &mut p, &mut b);
            if &p != pos {
                return Err(format!("{name}: generation changed the position"));
            }
            let got = seen(&b);
            if got != want {
                return Err(format!("{name}: {}", first_difference(&want, &got)));
            }
            if b.cut != a.cut {
                return Err(format!("{name}: limits {:?}, plain {:?}", b.cut, a.cut));
            }
            if rules.config().count {
                // Counting (`Rules::count_legal`) gives the number of legal moves, and each
                // of them is found by its index (`Rules::legal_move_at`).
                let mut p = pos.clone();
                let mut rest = MoveList::new();
                let n = rules.count_legal_noted(&mut ws, &mut p, &mut rest);
                if n != a.len() as u64 || &p != pos {
                    return Err(format!("{name}: counted {n} moves, plain {}", a.len()));
                }
                let mut one = MoveList::new();
                for (i, want) in want.iter().enumerate() {
                    let found = match rules.legal_move_at(&mut ws, &mut p, &rest, i, &mut one) {
                        Some(Picked::Listed(j)) => rest.moves.get(j).map(|m| seen_move(&rest, m)),
                        Some(Picked::Written(j)) => one.moves.get(j).map(|m| seen_move(&one, m)),
                        None => None,
                    };
                    if found.as_ref() != Some(want) || &p != pos {
                        return Err(format!("{name}: move {i} found {found:?}, plain {want:?}"));
                    }
                }
            }
            if let (Some(i), Some(after)) = (pick, &after) {
                let mut p = pos.clone();
                rules.make(&mut p, &b, &b.moves[i], &mut log);
                if &p != after {
                    return Err(format!("{name}: the position after move {i} differs"));
                }
                revert(&mut p, &mut log);
                if &p != pos {
                    return Err(format!("{name}: move {i} taken back differs"));
                }
            }
        }
        Ok(Compared {
            moves: a.len(),
            after,
        })
    }

    /// Plays `games` seeded random games of at most `plies` plies with the plain rules,
    /// comparing every path at every ply ([`PathRules::compare`]), until `budget` moves have
    /// been compared. The positions and moves compared, or the first difference.
    pub fn play(
        &self,
        (games, plies, budget): (usize, usize, usize),
        seed: u64,
    ) -> Result<(usize, usize), String> {
        let (mut positions, mut moves) = (0, 0);
        let mut state = seed;
        for game in 0..games {
            let mut pos = self.plain.initial();
            for ply in 0..plies {
                if moves >= budget {
                    return Ok((positions, moves));
                }
                let pick = |n: usize| (splitmix(&mut state) % n as u64) as usize;
                let c = (self.compare(&pos, pick, false))
                    .map_err(|e| format!("game {game}, ply {ply}: {e}"))?;
                positions += 1;
                moves += c.moves;
                match c.after {
                    Some(after) => pos = after,
                    None => break,
                }
            }
        }
        Ok((positions, moves))
    }
}

/// The next number of a splitmix64 sequence.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The first move that differs between two lists, for a message.
fn first_difference(want: &[SeenMove], got: &[SeenMove]) -> String {
    match want.iter().zip(got).position(|(w, g)| w != g) {
        Some(i) => format!("move {i} differs: plain {:?}, fast {:?}", want[i], got[i]),
        None => format!("{} moves, plain {}", got.len(), want.len()),
    }
}
