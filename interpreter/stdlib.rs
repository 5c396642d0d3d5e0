//! The standard library of macros, written in the rules language and embedded in the binary.

/// Every embedded file, by the name an `include` uses.
pub const FILES: &[(&str, &str)] = &[
    ("prelude.zrf", include_str!("../stdlib/prelude.zrf")),
    ("draughts.zrf", include_str!("../stdlib/draughts.zrf")),
    (
        "chess-pieces.zrf",
        include_str!("../stdlib/chess-pieces.zrf"),
    ),
    ("frisian.zrf", include_str!("../stdlib/frisian.zrf")),
];

/// The text of an embedded file.
pub fn file(name: &str) -> Option<&'static str> {
    let name = name.replace('\\', "/");
    let name = name.strip_prefix("stdlib/").unwrap_or(&name);
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
