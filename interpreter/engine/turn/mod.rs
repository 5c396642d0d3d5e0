//! The turn layer: whole turns from single steps, legality, goals, make and perft.

pub(super) mod chains;
pub(super) mod count;
pub(super) mod coverage;
pub(super) mod goals;
pub(super) mod legal;
pub(super) mod make;
pub(super) mod pick;
pub(super) mod royal_sets;
pub(super) mod turns;
pub(super) mod workspace;

use super::compiled::config::EngineConfig;
use super::exec::Generator;
use super::rules::Tables;
use crate::def::GameDef;

/// A game ready to play: the definition, the tables derived from it, and the whole turns
/// played from them (legal moves, `make`, goals, perft). Its layers' methods and the
/// tables' fields are reached through `Deref` ([`Generator`], then [`Tables`]).
#[derive(Clone, Debug)]
pub struct Rules {
    gen: Generator,
}

impl Rules {
    /// Derives the engine tables from a definition, with every fast path.
    pub fn new(def: GameDef) -> Rules {
        Rules::with_config(def, EngineConfig::all())
    }

    /// Derives the engine tables from a definition, with the fast paths of `config`.
    pub fn with_config(def: GameDef, config: EngineConfig) -> Rules {
        Rules {
            gen: Generator::new(Tables::with_config(def, config)),
        }
    }
}

impl std::ops::Deref for Rules {
    type Target = Generator;
    #[inline(always)]
    fn deref(&self) -> &Generator {
        &self.gen
    }
}

impl std::ops::DerefMut for Rules {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Generator {
        &mut self.gen
    }
}
