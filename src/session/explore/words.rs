//! The panel's words for the explorer's fault kinds and classes, in one place: the form's
//! checkboxes, a search's mix in words and a sweep's caption all take them from here.

use crate::explore::sweep::Param;
use crate::explore::Class;
use crate::scenario::FaultKind;

/// A fault kind's id, as its checkbox's test hook says it (`explore-kind-{id}`).
pub fn kind_id(k: FaultKind) -> &'static str {
    k.id()
}

/// A fault kind as a noun: "clock jump".
pub fn kind_noun(k: FaultKind) -> &'static str {
    k.noun()
}

/// The kind of the one fault a sweep of `p` varies, as a noun.
pub fn swept_fault(p: Param) -> &'static str {
    match p {
        Param::PauseTtl => "pause",
        Param::JumpMs => "clock jump",
        Param::DriftPpm => "clock drift",
        Param::DelayMs => "delay",
    }
}

/// A class as a counter's label.
pub fn class_label(c: Class) -> &'static str {
    match c {
        Class::LostUpdate => "lost update",
        Class::TokenRepeated => "token handed out again",
        Class::TwoBelievers => "two believers at once",
        Class::NeverGranted => "never granted",
        Class::Safe => "safe",
    }
}
