//! Game records, side by side: zrf's native `.game` format (`native`), and the readers and
//! writers of other programs' formats as they are added. Each format turns text into moves
//! and headers, or back; replaying the moves against the rules is the caller's job, so this
//! module does no I/O.

pub mod native;
