//! `zrf.Game`: a loaded game or variant, shared by its states.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use zrf::actions::Space;
use zrf::diagnostic::{has_errors, render, RenderOptions, Severity};
use zrf::engine::{PerftOptions, Position, Rules};

use crate::files::{self, PyFiles};
use crate::observe::Layout;
use crate::{error, guard};

/// One diagnostic as Python sees it.
pub struct DiagInfo {
    pub severity: &'static str,
    pub message: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub help: Option<String>,
}

/// What every state of a game shares.
pub struct Shared {
    /// The name the rules were read under (a path, or a made-up name for text).
    pub path: String,
    /// The files the rules were read from (with the text, when given as text).
    pub files: PyFiles,
    /// Titles of every game and variant of the file.
    pub titles: Vec<String>,
    /// The index of this variant among them.
    pub variant: usize,
    /// The rules (a template: states have their own copy inside `play::Game`).
    pub rules: Arc<Rules>,
    /// The action numbering.
    pub space: Space,
    /// Where the observation tensor's planes lie.
    pub layout: Layout,
    /// After this many actions a game ends in a draw (`Game.max_game_length()`).
    pub max_len: u64,
    /// The Python ints of the actions below [`INT_CACHE`], each made when first listed, so
    /// that a list of legal actions costs a reference count per action, not an allocation.
    pub ints: Mutex<Vec<Option<Py<PyAny>>>>,
    /// What dropped states of this game left: their buffers, for the next new states.
    pub spare: Mutex<Vec<crate::state::Spare>>,
    /// A game at the start: the start position of new states, made once.
    pub blank: zrf::play::Game,
}

/// How many actions (from 0) keep their Python int in [`Shared::ints`].
const INT_CACHE: u64 = 1 << 16;

impl Shared {
    /// The title of this game or variant.
    pub fn title(&self) -> &str {
        &self.titles[self.variant]
    }

    /// What every state of a game shares, for rules already made.
    pub fn new(
        path: String,
        files: PyFiles,
        titles: Vec<String>,
        variant: usize,
        rules: Arc<Rules>,
        max_len: u64,
    ) -> Shared {
        Shared {
            path,
            files,
            titles,
            variant,
            space: Space::new(&rules.def),
            layout: Layout::new(&rules),
            blank: zrf::play::Game::new(rules.clone(), rules.initial()),
            rules,
            max_len,
            ints: Mutex::default(),
            spare: Mutex::default(),
        }
    }

    /// A new Python list of the actions.
    pub fn action_list<'py>(
        &self,
        py: Python<'py>,
        actions: &[u32],
    ) -> PyResult<Bound<'py, PyList>> {
        let mut ints = self.ints.lock().unwrap_or_else(|e| e.into_inner());
        let cached = self.space.size().min(INT_CACHE) as usize;
        if ints.len() < cached {
            ints.resize_with(cached, || None);
        }
        let int = |a: u32| {
            let Ok(v) = a.into_pyobject(py);
            v.into_any()
        };
        PyList::new(
            py,
            actions.iter().map(|&a| match ints.get_mut(a as usize) {
                Some(slot) => slot
                    .get_or_insert_with(|| int(a).unbind())
                    .clone_ref(py)
                    .into_bound(py),
                None => int(a),
            }),
        )
    }
}

/// `Game.max_game_length()` when `zrf.load` is given none: ZRF has no rule that bounds a
/// game's length (see docs/python.md).
pub const DEFAULT_MAX_GAME_LENGTH: u64 = 1000;

/// The largest `max_game_length` accepted (OpenSpiel keeps it in a C++ `int`).
pub const MAX_MAX_GAME_LENGTH: u64 = i32::MAX as u64;

/// Loads rules; on failure the rendered text and every diagnostic.
pub fn load(
    source: &str,
    variant: Option<&str>,
    max_len: u64,
) -> Result<Game, (String, Vec<DiagInfo>)> {
    let plain = |m: String| (m, Vec::new());
    let is_text = source.trim_start().starts_with('(');
    if is_text && source.len() as u64 > files::MAX_FILE {
        return Err(plain(format!(
            "the rules text is too long ({} bytes; the limit is {})",
            source.len(),
            files::MAX_FILE
        )));
    }
    if !is_text && source.len() > 4096 {
        return Err(plain(format!(
            "cannot read a path of {} bytes: no such file",
            source.len()
        )));
    }
    let (path, files) = if is_text {
        let name = "rules.zrf".to_string();
        let f = PyFiles::with_text(&name, source.as_bytes());
        (name, f)
    } else if std::path::Path::new(source).exists() {
        (source.to_string(), PyFiles::default())
    } else if let Some((name, text)) = files::shipped(source) {
        (name.to_string(), PyFiles::with_text(name, text.as_bytes()))
    } else {
        return Err(plain(format!(
            "cannot read {source}: no such file, and no shipped game has that name \
             (zrf.games() lists them)"
        )));
    };
    let bytes = match zrf::repl::Files::read_if_exists(&files, &path) {
        Ok(b) => b,
        Err(why) => {
            let why = why.to_string();
            return Err(plain(format!("cannot read {path}: {why}")));
        }
    };
    let loaded = zrf::load(&path, &bytes, &files);
    let idx = zrf::summary::select_variant(&loaded.games, variant)
        .map_err(|e| plain(e.pointing_to(None)))?;
    let (def, mut diags) = zrf::resolve_game(&loaded.games[idx]);
    diags.extend(loaded.diags.iter().cloned());
    zrf::tidy(&loaded.map, &mut diags);
    let def = match def {
        Some(def) if !has_errors(&diags) => def,
        _ => {
            let text = render(&loaded.map, &diags, RenderOptions { color: false });
            let infos = diags
                .iter()
                .map(|d| {
                    let span = loaded.map.use_site(d.primary.span);
                    let (line, column) = loaded.map.line_col(span);
                    DiagInfo {
                        severity: match d.severity {
                            Severity::Error => "error",
                            Severity::Warning => "warning",
                        },
                        message: d.message.clone(),
                        file: loaded.map.file(span.file).name.clone(),
                        line,
                        column,
                        help: d.help.clone(),
                    }
                })
                .collect();
            return Err((text, infos));
        }
    };
    let rules = Arc::new(Rules::new(def));
    let titles = loaded.games.iter().map(|g| g.title.clone()).collect();
    Ok(Game {
        shared: Arc::new(Shared::new(path, files, titles, idx, rules, max_len)),
    })
}

/// A game or variant loaded from a rules file (`zrf.load`).
#[pyclass(frozen, module = "zrf._zrf")]
pub struct Game {
    pub shared: Arc<Shared>,
}

#[pymethods]
impl Game {
    /// The title of the game or variant.
    #[getter]
    fn title(&self) -> String {
        self.shared.title().to_string()
    }

    /// The name the rules were read under.
    #[getter]
    fn path(&self) -> String {
        self.shared.path.clone()
    }

    /// Titles of every game and variant in the rules file, in file order.
    fn variants(&self) -> Vec<String> {
        self.shared.titles.clone()
    }

    /// How many players the game has (random players included).
    fn num_players(&self) -> usize {
        self.shared.rules.def.players.len()
    }

    /// The players' names in order.
    fn players(&self) -> Vec<String> {
        let def = &self.shared.rules.def;
        def.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The piece types' names in order (the piece index of the action encoding).
    fn pieces(&self) -> Vec<String> {
        let def = &self.shared.rules.def;
        def.pieces.iter().map(|p| p.name.clone()).collect()
    }

    /// The positions' names in order (the square index of the action encoding).
    fn positions(&self) -> Vec<String> {
        let def = &self.shared.rules.def;
        def.board.positions.iter().map(|p| p.name.clone()).collect()
    }

    /// The game's starting state.
    fn new_initial_state(&self) -> PyResult<crate::state::State> {
        guard(|| {
            // The blank game's start is the rules' initial position, made once.
            let pos = self.shared.blank.start().clone();
            Ok(crate::state::State::new(self.shared.clone(), pos, None))
        })
    }

    /// The number of distinct actions (every action is below it).
    fn action_space_size(&self) -> u64 {
        self.shared.space.size()
    }

    /// Same as `action_space_size` (OpenSpiel's name).
    fn num_distinct_actions(&self) -> u64 {
        self.shared.space.size()
    }

    /// The shape of `State.observation_tensor()`: `[C, H, W]` for a board of one grid,
    /// `[C, N]` (N positions) for any other board.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.shared.layout.shape.clone()
    }

    /// A name per plane of the observation tensor, in order (docs/python.md).
    fn observation_planes(&self) -> Vec<String> {
        self.shared.layout.names(&self.shared.rules.def)
    }

    /// The most actions a game lasts: after that many (random players' included) it ends in a
    /// draw. `zrf.load(..., max_game_length=...)` sets it; 1000 by default.
    fn max_game_length(&self) -> u64 {
        self.shared.max_len
    }

    /// The indices of the random players (`?Dice`): their turns are chance nodes.
    fn random_players(&self) -> Vec<usize> {
        let def = &self.shared.rules.def;
        (0..def.players.len())
            .filter(|&p| def.players[p].random)
            .collect()
    }

    /// The board as the browser draws it: cells (id, name, label, rect, grid, dark, coords),
    /// bounds, zones, links.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        board_dict(py, &self.shared.rules)
    }

    /// Counts the leaf positions `depth` moves from the start (whole turns).
    #[pyo3(signature = (depth, bulk=false))]
    fn perft(&self, py: Python<'_>, depth: u32, bulk: bool) -> PyResult<u64> {
        let mut pos = self.shared.rules.initial();
        perft(py, &self.shared.rules, &mut pos, depth, bulk)
    }

    fn __repr__(&self) -> String {
        format!(
            "<zrf.Game {:?} from {:?}>",
            self.shared.title(),
            self.shared.path
        )
    }
}

/// The most plies `perft` and `divide` search.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Perft with the GIL released.
pub fn perft(
    py: Python<'_>,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    bulk: bool,
) -> PyResult<u64> {
    if depth > MAX_PERFT_DEPTH {
        return Err(error(format!(
            "perft depth {depth} is beyond the limit of {MAX_PERFT_DEPTH}"
        )));
    }
    py.allow_threads(|| {
        guard(|| {
            let opts = PerftOptions {
                unique: false,
                bulk,
            };
            Ok(rules.perft_with(pos, depth, opts))
        })
    })
}

/// `view::board` as a dict.
pub fn board_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let v = zrf::view::board(&rules.def);
    let d = PyDict::new(py);
    let cells = PyList::empty(py);
    for c in &v.cells {
        let cd = PyDict::new(py);
        cd.set_item("id", c.id)?;
        cd.set_item("name", &c.name)?;
        cd.set_item("label", &c.label)?;
        cd.set_item("rect", c.rect.to_vec())?;
        cd.set_item("grid", c.grid)?;
        // The position's index along each dimension of its grid (None outside a grid).
        let coords = rules
            .def
            .board
            .positions
            .get(c.id)
            .and_then(|p| p.grid)
            .map(|(g, idx)| {
                let dims = rules.def.board.grids[g as usize].labels.len();
                idx[..dims.min(idx.len())].to_vec()
            });
        cd.set_item("coords", coords)?;
        cd.set_item("dark", c.dark)?;
        cells.append(cd)?;
    }
    d.set_item("cells", cells)?;
    d.set_item("bounds", v.bounds.to_vec())?;
    d.set_item("from_file", v.from_file)?;
    let zones = PyDict::new(py);
    for (name, per) in &v.zones {
        zones.set_item(name, per.clone())?;
    }
    d.set_item("zones", zones)?;
    d.set_item("links", v.links.clone())?;
    Ok(d)
}
