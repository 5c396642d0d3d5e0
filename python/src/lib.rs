//! The native module `zrf._zrf`: Zillions-of-Games rules files as Python games.
//!
//! Every entry point catches panics and turns them into `ZrfError`, so a bug in zrf never
//! crosses into Python as a crash; long calls release the GIL.

mod cluster;
mod files;
mod game;
mod observe;
mod state;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

create_exception!(
    _zrf,
    ZrfError,
    PyValueError,
    "An error from zrf: a rules file with errors, a bad move, a bad position or argument."
);

/// The player id of a finished game (OpenSpiel's `kTerminalPlayerId`).
pub const TERMINAL: i64 = -4;
/// The player id of a random player's turn (OpenSpiel's `kChancePlayerId`).
pub const CHANCE: i64 = -1;

/// A `ZrfError` with a message and no diagnostics.
pub fn error(msg: impl Into<String>) -> PyErr {
    let msg = msg.into();
    Python::with_gil(|py| {
        let err = ZrfError::new_err(msg);
        let _ = err.value(py).setattr("diagnostics", PyList::empty(py));
        err
    })
}

/// A `ZrfError` carrying diagnostics (dicts of severity, message, file, line, column, help).
pub fn error_with(py: Python<'_>, msg: String, diags: Vec<game::DiagInfo>) -> PyErr {
    let err = ZrfError::new_err(msg);
    let list = PyList::empty(py);
    for d in diags {
        let dict = PyDict::new(py);
        let _ = dict.set_item("severity", d.severity);
        let _ = dict.set_item("message", d.message);
        let _ = dict.set_item("file", d.file);
        let _ = dict.set_item("line", d.line);
        let _ = dict.set_item("column", d.column);
        let _ = dict.set_item("help", d.help);
        let _ = list.append(dict);
    }
    let _ = err.value(py).setattr("diagnostics", list);
    err
}

/// Runs `f`, turning a panic into a `ZrfError`.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(error(format!("internal error in zrf (a bug): {what}")))
        }
    }
}

/// Loads a rules file: a path, an `os.PathLike`, a shipped game's name (`"chess"`) or the text
/// of a rules file (starting with `(`); `variant` is a title or a number from 1;
/// `max_game_length` the actions after which a game ends in a draw (1000 when None).
#[pyfunction]
#[pyo3(signature = (path_or_text, variant=None, max_game_length=None))]
fn load(
    py: Python<'_>,
    path_or_text: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
    max_game_length: Option<&Bound<'_, PyAny>>,
) -> PyResult<game::Game> {
    let max_len = match max_game_length {
        Some(m) if !m.is_none() => positive_int(m, "max_game_length", game::MAX_MAX_GAME_LENGTH)?,
        _ => game::DEFAULT_MAX_GAME_LENGTH,
    };
    let source: String = match path_or_text.extract::<String>() {
        Ok(s) => s,
        Err(_) => {
            let os = py.import("os")?;
            let p = os.call_method1("fspath", (path_or_text,)).map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "zrf.load needs a path, an os.PathLike, a game name or rules text",
                )
            })?;
            p.extract::<String>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("zrf.load needs a str path, not bytes")
            })?
        }
    };
    let variant: Option<String> = match variant {
        None => None,
        Some(v) if v.is_none() => None,
        Some(v) if v.is_instance_of::<pyo3::types::PyBool>() => {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "variant must be a title (str) or a number, not a bool",
            ))
        }
        Some(v) if v.is_instance_of::<pyo3::types::PyInt>() => match v.extract::<u32>() {
            Ok(n) => Some(n.to_string()),
            Err(_) => return Err(error(format!("there is no variant number {}", v.str()?))),
        },
        Some(v) => match v.extract::<String>() {
            Ok(s) if s.len() > 10_000 => return Err(error("the variant title is too long")),
            Ok(s) => Some(s),
            Err(_) => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "variant must be a title (str) or a number, not {}",
                    v.get_type().name()?
                )))
            }
        },
    };
    let loaded =
        py.allow_threads(|| guard(|| Ok(game::load(&source, variant.as_deref(), max_len))))?;
    match loaded {
        Ok(g) => Ok(g),
        Err((msg, diags)) => Err(error_with(py, msg, diags)),
    }
}

/// An int from 1 to `max` (not a bool): a `TypeError` for other types, a `ZrfError` out of
/// range.
pub fn positive_int(v: &Bound<'_, PyAny>, name: &str, max: u64) -> PyResult<u64> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            v.get_type().name()?
        )));
    }
    match v.extract::<i128>() {
        Ok(n) if n >= 1 && n <= max as i128 => Ok(n as u64),
        _ => Err(error(format!(
            "{name} must be from 1 to {max}, not {}",
            v.str()?
        ))),
    }
}

/// The shipped games, by the names `zrf.load` accepts.
#[pyfunction]
fn games() -> Vec<String> {
    zrf::shipped::GAMES
        .iter()
        .map(|(f, _)| f.trim_end_matches(".zrf").to_string())
        .collect()
}

#[pymodule]
fn _zrf(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ZrfError", m.py().get_type::<ZrfError>())?;
    m.add("TERMINAL", TERMINAL)?;
    m.add("CHANCE", CHANCE)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(state::playouts, m)?)?;
    m.add_function(wrap_pyfunction!(state::read_records, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    cluster::register(m)?;
    Ok(())
}
