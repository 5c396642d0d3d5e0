//! zrf's static evaluation of positions split by the weights of its terms, for tuning them
//! against an outside judge (`scripts/tune-eval.py`).
//!
//!     cargo run --release --example eval_terms -- games/chess.zrf [NAME=VALUE...] < positions.fen
//!
//! `NAME=VALUE` sets a weight of `Weights::NAMES` (the others keep their defaults).
//! Reads one position a line (FEN, or any text `zrf::setup::parse` reads) and writes one
//! tab-separated line per position: the position, the evaluation for the side to move as the
//! search sees it (the tempo included), the part no weight scales, and for each weight of
//! `Weights::NAMES` its part: the evaluation with that weight doubled less the evaluation as
//! it is (exactly the term's worth where the term is linear in its weight, as all but
//! `centre` are up to rounding). The first two lines name the columns and give the weights.

use std::io::{BufRead, Write};

use zrf::ai::eval::{Evaluator, Weights};
use zrf::engine::Rules;

struct Files;

impl zrf::expand::Loader for Files {
    fn load(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }
}

fn main() {
    let file = std::env::args()
        .nth(1)
        .expect("usage: eval_terms RULES.zrf < positions");
    let bytes = std::fs::read(&file).expect("rules file");
    let loaded = zrf::load(&file, &bytes, &Files);
    let idx = zrf::summary::select_variant(&loaded.games, None).expect("variant");
    let (def, _) = zrf::resolve_game(&loaded.games[idx]);
    let rules = Rules::new(def.expect("the rules resolve"));
    let mut base = Weights::default();
    for arg in std::env::args().skip(2) {
        let (name, value) = arg.split_once('=').expect("NAME=VALUE");
        let i = Weights::NAMES
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("no weight {name}; the weights: {:?}", Weights::NAMES));
        *base.get_mut(i) = value.parse().expect("a number");
    }
    let plain = Evaluator::with_weights(&rules, &base);
    let bumped: Vec<Evaluator> = (0..Weights::NAMES.len())
        .map(|i| {
            let mut w = base.clone();
            *w.get_mut(i) *= 2.0;
            Evaluator::with_weights(&rules, &w)
        })
        .collect();
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(out, "fen\ttotal\trest\t{}", Weights::NAMES.join("\t")).unwrap();
    let mut given = base.clone();
    let values: Vec<String> = (0..Weights::NAMES.len())
        .map(|i| given.get_mut(i).to_string())
        .collect();
    writeln!(out, "weights\t\t\t{}", values.join("\t")).unwrap();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let pos = match zrf::setup::parse(&rules, text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{text}: {e}");
                continue;
            }
        };
        let me = rules.entry(pos.turn).mover;
        let total = plain.eval(&pos, me) + plain.tempo;
        let parts: Vec<i32> = bumped
            .iter()
            .map(|ev| ev.eval(&pos, me) + ev.tempo - total)
            .collect();
        let rest = total - parts.iter().sum::<i32>();
        let parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
        writeln!(out, "{text}\t{total}\t{rest}\t{}", parts.join("\t")).unwrap();
    }
}
