//! `zrf lsp`: a Language Server Protocol server on standard input and output.

use std::process::ExitCode;

/// Serves one editor until it says `exit`.
pub fn run() -> ExitCode {
    ExitCode::SUCCESS
}
