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
    use std::io::{BufRead, Read, Write};
    let out: zrf::protocol::Out = std::sync::Arc::new(|line: &str| {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    });
    let loader: zrf::protocol::SharedLoader = std::sync::Arc::new(FsLoader);
    let file = file.map(|f| f.to_string_lossy().into_owned());
    let mut handle: Box<dyn FnMut(&str) -> bool> = match which {
        Protocol::Uci => {
            let mut p = zrf::protocol::uci::Uci::new(out, loader, file.as_deref());
            Box::new(move |l| p.handle(l))
        }
        Protocol::Hub => {
            let mut p = zrf::protocol::hub::Hub::new(out, loader, file.as_deref());
            Box::new(move |l| p.handle(l))
        }
    };
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // One line at a time, never more than the protocol's limit in memory.
        let limit = zrf::protocol::uci::MAX_LINE as u64 + 1;
        match std::io::Read::by_ref(&mut input)
            .take(limit)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.len() as u64 >= limit && buf.last() != Some(&b'\n') {
            // Skip the rest of an overlong line.
            let mut sink = Vec::new();
            let _ = input.read_until(b'\n', &mut sink);
        }
        let line = String::from_utf8_lossy(&buf);
        if !handle(line.trim_end_matches(['\n', '\r'])) {
            return ExitCode::SUCCESS;
        }
    }
    // End of input: stop like `quit`.
    handle("quit");
    ExitCode::SUCCESS
}
