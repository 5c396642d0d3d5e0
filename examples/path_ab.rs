//! One fast path off against all on, in the same build: perft or seeded random playouts of a
//! rules file with every path of `EngineConfig` on except, with `off`, the one named. Run each
//! under callgrind and subtract the same run at depth 1 (or 0 games) to get the search's
//! instructions with and without the path (`docs/engine-paths.md`):
//!
//!     cargo build --release --example path_ab
//!     valgrind --tool=callgrind target/release/examples/path_ab games/chess.zrf perft 4 rays off
//!     valgrind --tool=callgrind target/release/examples/path_ab games/chess.zrf playouts 20 rays on
//!
//! It prints the leaf count, or the plies the playouts played (400 at most a game, seed 7).

use std::error::Error;
use zrf::engine::{EngineConfig, FastPath, Rules};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, what, n, path, state] = args.as_slice() else {
        return Err("usage: path_ab FILE perft|playouts N PATH on|off".into());
    };
    let n: usize = n.parse()?;
    let path = (FastPath::ALL.iter())
        .find(|p| p.name() == path)
        .ok_or_else(|| format!("no fast path named {path}"))?;
    let on = match state.as_str() {
        "on" => true,
        "off" => false,
        other => return Err(format!("expected on or off, not {other}").into()),
    };
    let bytes = std::fs::read(file)?;
    let loaded = zrf::load(file, &bytes, &zrf::expand::NoFiles);
    let game = loaded.games.first().ok_or("no game in the file")?;
    let (Some(def), _) = zrf::resolve_game(game) else {
        return Err("the game does not resolve (see zrf check)".into());
    };
    let rules = Rules::with_config(def, EngineConfig::all().with(*path, on));
    let start = rules.initial();
    match what.as_str() {
        "perft" => println!("{}", rules.perft(&mut start.clone(), n as u32)),
        "playouts" => {
            let played = zrf::arena::playouts(rules, &start, n, 7, 400);
            println!("{}", played.iter().map(|p| p.plies).sum::<usize>());
        }
        other => return Err(format!("expected perft or playouts, not {other}").into()),
    }
    Ok(())
}
