//! A field described as data: its name, what it holds, its bounds and unit, what absent means.
//! Fault kinds (scenario/fault/kind.rs) describe their fields with it, and approaches their
//! own `lock` settings (protocols/spec.rs, `Setting`), so the reader, validation, the editor's
//! form and Compare handle either with no code of their own per field. It sits below both
//! (it imports nothing) so the protocols need not import the scenario layer.

/// What one field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `at_ms`: when the fault strikes, in true ms within the run. The shrinker moves it later
    /// (the latest start that still fails).
    At,
    Number(Number),
    /// A node's name.
    Node,
    /// Disjoint groups of node names (unlisted nodes form one more group).
    Groups,
    /// Yes or no; absent means no. The shrinker tries no.
    Flag,
}

/// A whole number of `unit`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Number {
    pub need: Need,
    /// What validation accepts.
    pub lo: i64,
    pub hi: i64,
    /// "ms" or "ppm".
    pub unit: &'static str,
    /// What the explorer draws from unless its mix says otherwise.
    pub draw: (i64, i64),
    /// Which value the shrinker moves it toward: the mildest form of the fault.
    pub toward: Toward,
}

/// Whether a number must be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Required,
    /// Absent means this value.
    Default(i64),
    /// Absent is a meaning of its own, in the form's words ("stays down", "to the end").
    Optional {
        absent: &'static str,
    },
}

/// The mildest value of a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toward {
    /// Its lowest valid value (the shortest pause, the quickest restart).
    Low,
    /// Zero (the smallest clock jump or drift, either sign).
    Zero,
}

/// One field of a fault kind or of an approach's `lock` settings, named as the JSON names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub ty: Ty,
    /// The form's label when this is the row's one amount ("for", "restarts after").
    pub form: Option<&'static str>,
}

impl Param {
    /// What it holds if it is a number.
    pub fn number(&self) -> Option<Number> {
        match self.ty {
            Ty::Number(n) => Some(n),
            _ => None,
        }
    }
}
