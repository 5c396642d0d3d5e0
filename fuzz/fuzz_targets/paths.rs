//! The engine's fast paths against the plain tree on generated rules files: the input, read
//! as structured data (`arbitrary::Unstructured`), becomes a small game (a board of 3 to 6
//! files and ranks, pieces with move programs of steps, tests, loops, captures, promotions,
//! partial moves with move types and priorities, attributes, flags, marks, drops, options,
//! an `after-move` clock or counter, goals) rendered as ZRF text and loaded as a user's file
//! is. Then a few seeded random plies are played, and at each, every fast path alone must give
//! the plain tree's moves op for op and the same position after the move
//! (`zrf::testing::paths::PathRules::compare`; positions where a limit cut the plain tree's
//! generation are not compared).
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use zrf::testing::paths::PathRules;

/// The plies one input plays at most.
const PLIES: usize = 10;

const DIRS: [&str; 8] = ["n", "e", "s", "w", "ne", "nw", "se", "sw"];
const PIECES: [&str; 3] = ["P", "Q", "K"];

/// The text being generated, with what the game declares.
struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    /// The game has move types (`jump`, `step`).
    typed: bool,
}

impl Gen<'_, '_> {
    fn pick<'s>(&mut self, from: &[&'s str]) -> Result<&'s str> {
        Ok(from[self.u.choose_index(from.len())?])
    }

    fn cond(&mut self, depth: u32) -> Result<String> {
        let dir = self.pick(&DIRS)?;
        let piece = self.pick(&PIECES)?;
        let n = if depth > 0 { 14 } else { 11 };
        Ok(match self.u.int_in_range(0..=n)? {
            0 => "empty?".into(),
            1 => "not-empty?".into(),
            2 => "enemy?".into(),
            3 => "friend?".into(),
            4 => "not-friend?".into(),
            5 => "(in-zone? promo)".into(),
            6 => format!("(on-board? {dir})"),
            7 => format!("(empty? {dir})"),
            8 => format!("(piece? {piece})"),
            9 => "moved?".into(),
            10 => "(flag? f)".into(),
            11 => "(not-attacked?)".into(),
            12 => format!("(and {} {})", self.cond(depth - 1)?, self.cond(depth - 1)?),
            13 => format!("(or {} {})", self.cond(depth - 1)?, self.cond(depth - 1)?),
            _ => format!("(not {})", self.cond(depth - 1)?),
        })
    }

    fn add(&mut self) -> Result<String> {
        let t = if self.typed {
            self.pick(&["jump", "step"])?
        } else {
            ""
        };
        let piece = self.pick(&PIECES)?;
        Ok(match self.u.int_in_range(0..=5)? {
            0 | 1 => "add".into(),
            2 => format!("(add {piece})"),
            3 => "(add Q K)".into(),
            4 => "add-partial".into(),
            _ => format!("(add-partial {t})"),
        })
    }

    fn instr(&mut self, depth: u32) -> Result<String> {
        let dir = self.pick(&DIRS)?;
        let piece = self.pick(&PIECES)?;
        let n = if depth > 0 { 17 } else { 13 };
        Ok(match self.u.int_in_range(0..=n)? {
            0..=2 => dir.to_string(),
            3 | 4 => format!("(verify {})", self.cond(1)?),
            5 => "capture".into(),
            6 => format!("(capture {dir})"),
            7 | 8 => self.add()?,
            9 => "mark".into(),
            10 => "back".into(),
            11 => "(set-attribute moved? true)".into(),
            12 => "(set-flag f true)".into(),
            13 => format!("(change-type {piece})"),
            14 => format!("(while {} {dir})", self.cond(1)?),
            15 => format!("(while {} {} {dir})", self.cond(1)?, self.add()?),
            // A loop's body steps every round, so the loop leaves the board (a `back` there
            // would make it run to the step limit, which only costs time).
            16 => format!(
                "(while {} {dir} {})",
                self.cond(1)?,
                self.loop_instr()?
            ),
            _ => format!(
                "(if {} {} else {})",
                self.cond(1)?,
                self.block_body(depth - 1, 2)?,
                self.block_body(depth - 1, 2)?
            ),
        })
    }

    /// An instruction after a loop's step: one that does not move the current square back.
    fn loop_instr(&mut self) -> Result<String> {
        let piece = self.pick(&PIECES)?;
        Ok(match self.u.int_in_range(0..=5)? {
            0 => format!("(verify {})", self.cond(1)?),
            1 => "capture".into(),
            2 => self.add()?,
            3 => "(set-attribute moved? true)".into(),
            4 => "(set-flag f true)".into(),
            _ => format!("(change-type {piece})"),
        })
    }

    fn block_body(&mut self, depth: u32, max: usize) -> Result<String> {
        let n = self.u.int_in_range(1..=max)?;
        let mut parts = Vec::new();
        for _ in 0..n {
            parts.push(self.instr(depth)?);
        }
        Ok(parts.join(" "))
    }

    fn block(&mut self) -> Result<String> {
        let mut body = self.block_body(1, 6)?;
        // Most real blocks end by adding.
        if self.u.ratio(2, 3)? {
            body.push(' ');
            body.push_str(&self.add()?);
        }
        Ok(format!("({body})"))
    }

    fn moves(&mut self) -> Result<String> {
        let mut out = String::new();
        let kinds: &[&str] = if self.typed { &["jump", "step"] } else { &[""] };
        for kind in kinds {
            if !kind.is_empty() {
                out += &format!(" (move-type {kind})");
            }
            for _ in 0..self.u.int_in_range(1..=3)? {
                out.push(' ');
                out += &self.block()?;
            }
        }
        Ok(out)
    }

    fn game(&mut self) -> Result<String> {
        let w = self.u.int_in_range(3..=6usize)?;
        let h = self.u.int_in_range(3..=6usize)?;
        self.typed = self.u.ratio(1, 3)?;
        let files: Vec<String> = (0..w).map(|i| ((b'a' + i as u8) as char).to_string()).collect();
        let ranks: Vec<String> = (1..=h).rev().map(|r| r.to_string()).collect();
        let name = |x: usize, y: usize| format!("{}{}", files[x], ranks[y]);
        let mut t = String::from("(game (title \"F\") (players White Black) (turn-order White Black)\n");
        if self.typed && self.u.ratio(1, 2)? {
            t += "(move-priorities jump step)\n";
        }
        for (opt, values) in [
            ("maximal captures", &["true", "2"][..]),
            ("recycle captures", &["true", "capturer"][..]),
            ("deferred captures", &["true"][..]),
            ("pass partial", &["true"][..]),
            ("pass turn", &["true", "forced"][..]),
            ("complete captures", &["true"][..]),
        ] {
            if self.u.ratio(1, 8)? {
                t += &format!("(option \"{opt}\" {})\n", self.pick(values)?);
            }
        }
        t += &format!(
            "(board (grid (dimensions (\"{}\" (1 0)) (\"{}\" (0 1)))\n\
             (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))\n",
            files.join("/"),
            ranks.join("/")
        );
        t += "(symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))\n";
        let top: Vec<String> = (0..w).map(|x| name(x, 0)).collect();
        let bottom: Vec<String> = (0..w).map(|x| name(x, h - 1)).collect();
        t += &format!(
            "(zone (name promo) (players White) (positions {}))\n\
             (zone (name promo) (players Black) (positions {})))\n",
            top.join(" "),
            bottom.join(" ")
        );
        for piece in PIECES {
            t += &format!("(piece (name {piece}) (attribute moved? false) (moves{})", self.moves()?);
            if piece == "P" && self.u.ratio(1, 4)? {
                t += &format!(" (drops {})", self.block()?);
            }
            t += ")\n";
        }
        // The setup: about a third of the squares hold a piece.
        let mut setup = [Vec::new(), Vec::new()];
        for y in 0..h {
            for x in 0..w {
                if self.u.ratio(1, 3)? {
                    let side = self.u.choose_index(2)?;
                    let piece = self.pick(&PIECES)?;
                    setup[side].push(format!("({piece} {})", name(x, y)));
                }
            }
        }
        let off = if self.u.ratio(1, 4)? { " (P off 2)" } else { "" };
        t += &format!(
            "(board-setup (White {}{off}) (Black {}{off}))\n",
            setup[0].join(" "),
            setup[1].join(" ")
        );
        match self.u.int_in_range(0..=3)? {
            0 => t += "(counter c) (after-move (if (or capture-made? (moved-piece? P)) (set c 0) else (inc c))) (draw-condition (White Black) (>= c 6))\n",
            1 => t += "(counter c) (after-move (if capture-made? (inc c 2))) (win-condition (White Black) (>= c 5))\n",
            _ => {}
        }
        if self.u.ratio(1, 2)? {
            t += "(loss-condition (White Black) (checkmated K))\n";
        }
        t += "(win-condition (White Black) (pieces-remaining 0))\n(draw-condition (White Black) stalemated))\n";
        Ok(t)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(text) = (Gen {
        u: &mut u,
        typed: false,
    })
    .game() else {
        return;
    };
    let seed = u.arbitrary::<u64>().unwrap_or(0);
    let loaded = zrf::load("fuzz.zrf", text.as_bytes(), &zrf::expand::NoFiles);
    let Some(game) = loaded.games.first() else {
        return;
    };
    let (def, _) = zrf::resolve_game(game);
    let Some(def) = def else {
        return;
    };
    let rules = PathRules::new(def);
    let mut pos = rules.plain.initial();
    let mut state = seed;
    for ply in 0..PLIES {
        let pick = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        match rules.compare(&pos, pick, true) {
            Ok(c) => match c.after {
                Some(after) => pos = after,
                None => break,
            },
            Err(e) => panic!("ply {ply}: {e}\n{text}"),
        }
    }
});
