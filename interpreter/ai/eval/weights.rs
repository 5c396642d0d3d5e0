//! The weights of the evaluation's terms, in one place so that they can be tuned
//! (`scripts/tune-eval.py`, `examples/eval_terms.rs`): [`Weights::default`] is what the
//! computer player uses.
//!
//! The weights of the games with the mobility term (royal pieces, no drops: chess and its
//! kin) were fitted to Stockfish 15.1's evaluation of 9,749 quiet chess positions and kept
//! after winning at equal nodes (docs/strength.md); the hand-set values
//! they replace: `centre` 0.25, `promotion` 1, `royal_exposed` 0.5, `prox_own` 8, `tempo`
//! 10, `doubled` 15, `defended` 5, `half_open` 10, `open` 15, `passed_mg` 30, `free_eg` 40.
//! `plain_centre` and `plain_promotion` (every other game) were set by hand. The threats'
//! weights (`threat_lesser`, `threat_promoter`, `hanging`) were fitted the same way with the
//! others held: the ridge's 78, 32 and 4 and the chosen 60, 50 and 15
//! err alike on held-out positions.

/// The weights of the terms (each in the unit its term states).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// How much a square's own mobility moves a piece's worth there (0: not at all, 1: fully),
    /// in games with the mobility term (`activity.rs`), which counts mobility on the board.
    pub centre: f64,
    /// Share of a promoter's gain in worth (what it promotes to, less itself) it has from
    /// being near promotion (`gain / (2 (d + 1)^2)` at `d` moves) when this is 1, in games
    /// with the mobility term.
    pub promotion: f64,
    /// [`Weights::centre`] and [`Weights::promotion`] in the other games.
    pub plain_centre: f64,
    /// See [`Weights::plain_centre`].
    pub plain_promotion: f64,
    /// Royal safety while material is high: the most exposed square costs this many units.
    pub royal_exposed: f64,
    /// Royal safety while material is high: three moves or more from the side's setup
    /// squares cost this many units.
    pub royal_away: f64,
    /// Royal centre in the ending: units per unit of the royal's mobility ratio over average.
    pub royal_centre: f64,
    /// Worth of one safe square, as a share of the type's worth over its average reach on
    /// the empty board.
    pub mobility: f64,
    /// In the ending, hundredths per royal move between a fully advanced promoter and the
    /// other side's royal piece, and the same for its own side's.
    pub prox_other: f64,
    /// The same for the promoter's own side's royal piece.
    pub prox_own: f64,
    /// Hundredths a side gains per royal move its royal piece stands nearer a bare royal
    /// piece.
    pub mop_up: f64,
    /// Hundredths the search adds for the side to move (games with the activity term).
    pub tempo: f64,
    /// Promoter structure, in hundredths: doubled (the one behind), isolated, defended.
    pub doubled: f64,
    /// A promoter with no promoter of its side on the neighbouring lines.
    pub isolated: f64,
    /// A promoter a promoter of its side captures onto.
    pub defended: f64,
    /// Two pieces of one bound type on different complexes (the bishop pair).
    pub pair: f64,
    /// A piece on a promoters' line it reaches whole, without promoters of its side, and
    /// the more where the line holds none of the other side's either.
    pub half_open: f64,
    /// More for such a line without the other side's promoters either.
    pub open: f64,
    /// Passed promoters: hundredths anywhere, then times the square of the advancement from
    /// `passed_mg` (all material on the board) to `passed_eg` (none), and `free_eg` more in
    /// the ending when its way ahead is empty.
    pub passed: f64,
    /// Times the square of the advancement with all material on the board.
    pub passed_mg: f64,
    /// Times the square of the advancement with none but royal pieces and promoters.
    pub passed_eg: f64,
    /// More in the ending, times the square of the advancement, when its way ahead is empty.
    pub free_eg: f64,
    /// Threats (`threats.rs`), hundredths per piece of the other side: attacked by a
    /// non-promoting piece of lesser worth.
    pub threat_lesser: f64,
    /// Attacked by a promoter, not being one.
    pub threat_promoter: f64,
    /// Attacked and defended by nothing.
    pub hanging: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            centre: 0.05,
            promotion: 0.65,
            plain_centre: 0.25,
            plain_promotion: 1.0,
            royal_exposed: 1.5,
            royal_away: 0.5,
            royal_centre: 0.6,
            mobility: 0.10,
            prox_other: 20.0,
            prox_own: 16.0,
            mop_up: 10.0,
            tempo: 15.0,
            doubled: 20.0,
            isolated: 12.0,
            defended: 10.0,
            pair: 40.0,
            half_open: 25.0,
            open: 20.0,
            passed: 10.0,
            passed_mg: 0.0,
            passed_eg: 110.0,
            free_eg: 120.0,
            threat_lesser: 60.0,
            threat_promoter: 50.0,
            hanging: 15.0,
        }
    }
}

impl Weights {
    /// The names of the weights, in the order of [`Weights::get_mut`].
    pub const NAMES: [&'static str; 23] = [
        "centre",
        "promotion",
        "royal_exposed",
        "royal_away",
        "royal_centre",
        "mobility",
        "prox_other",
        "prox_own",
        "mop_up",
        "tempo",
        "doubled",
        "isolated",
        "defended",
        "pair",
        "half_open",
        "open",
        "passed",
        "passed_mg",
        "passed_eg",
        "free_eg",
        "threat_lesser",
        "threat_promoter",
        "hanging",
    ];

    /// The weight named `NAMES[i]`.
    pub fn get_mut(&mut self, i: usize) -> &mut f64 {
        let w = self;
        match i {
            0 => &mut w.centre,
            1 => &mut w.promotion,
            2 => &mut w.royal_exposed,
            3 => &mut w.royal_away,
            4 => &mut w.royal_centre,
            5 => &mut w.mobility,
            6 => &mut w.prox_other,
            7 => &mut w.prox_own,
            8 => &mut w.mop_up,
            9 => &mut w.tempo,
            10 => &mut w.doubled,
            11 => &mut w.isolated,
            12 => &mut w.defended,
            13 => &mut w.pair,
            14 => &mut w.half_open,
            15 => &mut w.open,
            16 => &mut w.passed,
            17 => &mut w.passed_mg,
            18 => &mut w.passed_eg,
            19 => &mut w.free_eg,
            20 => &mut w.threat_lesser,
            21 => &mut w.threat_promoter,
            _ => &mut w.hanging,
        }
    }
}

/// A weight in hundredths as the integer the evaluation adds.
pub(super) fn hundredths(w: f64) -> i32 {
    w.round() as i32
}
