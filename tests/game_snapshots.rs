//! Snapshots of every shipped game and variant: the resolved summary, the start position, the
//! legal moves at the start and small perft counts. Review changes with `cargo insta review`.

use std::fmt::Write;

use zrf::engine::Rules;
use zrf::expand::NoFiles;

#[test]
fn shipped_games() {
    insta::glob!("../games", "*.zrf", |path| {
        let bytes = std::fs::read(path).expect("rules file");
        let name = format!(
            "games/{}",
            path.file_name().expect("name").to_string_lossy()
        );
        let loaded = zrf::load(&name, &bytes, &NoFiles);
        let mut out = String::new();
        for game in &loaded.games {
            let (def, diags) = zrf::resolve_game(game);
            assert!(diags.is_empty(), "{name}: {diags:?}");
            let rules = Rules::new(def.expect("resolves"));
            let _ = writeln!(out, "==== {}", game.title);
            out += &zrf::summary::describe(&rules.def);
            let mut pos = rules.initial();
            let _ = writeln!(
                out,
                "{}",
                zrf::repl::diagram::diagram(&rules, &pos, false).trim_end()
            );
            let mut list = zrf::engine::MoveList::new();
            rules.legal_moves(&mut pos, &mut list);
            let _ = writeln!(
                out,
                "moves: {}",
                zrf::notation::move_texts(&rules.def, &list).join(" ")
            );
            let counts: Vec<String> = (1..=3)
                .map(|d| rules.perft(&mut pos, d).to_string())
                .collect();
            let _ = writeln!(out, "perft 1-3: {}\n", counts.join(" "));
        }
        insta::assert_snapshot!(out);
    });
}
