//! Draws by insufficient material in chess: `(only-pieces ...)` in games/chess.zrf.

mod common;

use common::game;

fn result(fen: &str, moves: &str) -> Option<String> {
    let mut g = game("games/chess.zrf", None, Some(fen), moves);
    g.outcome().map(|o| o.describe(&g.rules.def))
}

const DRAW: &str = "draw (insufficient material)";

#[test]
fn bare_kings_and_a_lone_minor_piece_draw() {
    assert_eq!(
        result("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "").as_deref(),
        Some(DRAW)
    );
    assert_eq!(
        result("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "").as_deref(),
        Some(DRAW)
    );
    assert_eq!(
        result("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", "").as_deref(),
        Some(DRAW)
    );
    assert_eq!(
        result("4k3/6n1/8/8/8/8/8/4K3 w - - 0 1", "").as_deref(),
        Some(DRAW)
    );
    assert_eq!(
        result("3bk3/8/8/8/8/8/8/4K3 w - - 0 1", "").as_deref(),
        Some(DRAW)
    );
}

#[test]
fn a_capture_that_leaves_a_lone_minor_piece_ends_the_game() {
    // White's bishop takes Black's last pawn.
    assert_eq!(
        result("4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1", "").as_deref(),
        None
    );
    assert_eq!(
        result("4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1", "Bxb2").as_deref(),
        Some(DRAW)
    );
}

#[test]
fn mating_material_plays_on() {
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",    // K+R v K
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",   // K+P v K
        "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1",  // K+B+N v K
        "4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1",  // K+N+N v K (no forced mate, but mate exists)
        "3bk3/8/8/8/8/8/8/1N2K3 w - - 0 1",  // K+N v K+B (a helpmate exists)
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", // K+B v K+B
    ] {
        assert_eq!(result(fen, ""), None, "{fen}");
    }
    let mut g = game(
        "games/chess.zrf",
        None,
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        "",
    );
    assert_eq!(g.legal().len(), 15, "the rook and king move on");
}
