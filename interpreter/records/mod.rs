//! Game records, side by side: zrf's native `.game` format (`native`), Zillions' saved games
//! (`zsg`, with `zsg_play` matching their moves against the rules), and the readers and
//! writers of other programs' formats as they are added. Each format turns text into moves
//! and headers, or back; this module does no I/O.

pub mod native;
pub mod zsg;
pub mod zsg_play;
