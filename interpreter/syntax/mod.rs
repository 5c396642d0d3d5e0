//! Text to S-expressions: the first stage of the pipeline and the only module that uses nom.

mod lex;
mod reader;
mod sexp;

pub use lex::{tokens, Token, TokenKind};
pub use reader::{is_delimiter_error, parse_file, MAX_DEPTH, MAX_NODES};
pub use sexp::{parse_int, Sexp, SexpKind};
