//! `zrf uci` and `zrf hub`: standard input fed to an engine protocol line by line, its
//! answers printed as they come.

use std::path::Path;
use std::process::ExitCode;

use crate::FsLoader;

pub(crate) enum Protocol {
    Uci,
    Hub,
}

/// Runs an engine protocol: each line of standard input goes to the protocol, whose answers
/// (also those of a search running meanwhile) are printed and flushed line by line.
pub(crate) fn engine_protocol(which: Protocol, file: Option<&Path>) -> ExitCode {
    use std::io::Write;
    let out: zrf::protocol::Out = std::sync::Arc::new(|line: &str| {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    });
    let loader: zrf::protocol::SharedLoader = std::sync::Arc::new(FsLoader);
    let file = file.map(|f| f.to_string_lossy().into_owned());
    let kind = match which {
        Protocol::Uci => zrf::protocol::Kind::Uci,
        Protocol::Hub => zrf::protocol::Kind::Hub,
    };
    let mut input = std::io::stdin().lock();
    zrf::protocol::serve(kind, &mut input, out, loader, file.as_deref());
    ExitCode::SUCCESS
}
