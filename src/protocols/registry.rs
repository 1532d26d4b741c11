//! Every lock approach, described in one place. Everything that differs by approach — its id
//! and names, its nodes and their default number, how many servers must hold a lease, whether
//! the lease is a fixed TTL or a session kept alive, the lifetime the service really grants,
//! the token and how it is written, which switches apply, the words captions use, and how its
//! nodes are built — is a field of its `Spec` (`spec.rs`), written in the approach's own protocol file
//! (`db_lease::SPEC`, `redis::SPEC`, …) and registered by `approaches!` below.
//!
//! Code elsewhere asks the spec (`approach.spec().lease`), never matches on the approach:
//! a new approach is its protocol file, its line in the `approaches!` list (protocols/mod.rs),
//! and its built-ins (docs/ADDING.md keeps the exact list).

use super::config::Kind;
pub use super::spec::Spec;
pub use super::Approach;

/// The one list of approaches, invoked once in protocols/mod.rs with a line per approach,
/// `Variant: module`, in the order menus list them. It declares the approach's module and writes
/// its `Approach` variant (the id scenario files use is the variant in kebab case, which is
/// also its `SPEC`'s id: a test holds them equal), its place in `Approach::ALL` and its spec.
macro_rules! approaches {
    ($($variant:ident: $module:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// A lock approach, as scenario files name it (`"approach": "redis"`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(serde::Deserialize))] // see scenario::format
        #[serde(rename_all = "kebab-case")]
        pub enum Approach {
            $($variant),+
        }

        impl Approach {
            /// Every approach, in the list's order.
            pub const ALL: [Approach; [$(stringify!($variant)),+].len()] = [$(Approach::$variant),+];

            /// Everything about it (spec.rs).
            pub fn spec(self) -> &'static Spec {
                match self {
                    $(Approach::$variant => &$module::SPEC),+
                }
            }
        }
    };
}
pub(crate) use approaches;

impl Approach {
    /// The id used in scenario files and links.
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    /// The name people use for it ("Redis SET NX PX").
    pub fn label(self) -> &'static str {
        self.spec().label
    }

    /// The short name a lecturer says out loud ("Redis").
    pub fn short_name(self) -> &'static str {
        self.spec().short
    }

    /// The approach with this id (`"etcd"`), if any.
    pub fn by_id(id: &str) -> Option<Approach> {
        Approach::ALL.into_iter().find(|a| a.id() == id)
    }

    /// A fencing token as this approach names it: "token 3", "czxid 0x1_00000003",
    /// "revision 5", "no token".
    pub fn token_label(self, token: Option<u64>) -> String {
        self.spec().token.label(token)
    }

    /// The bare token for tight spots: "3", "0x1_00000003", "—".
    pub fn token_value(self, token: Option<u64>) -> String {
        self.spec().token.value(token)
    }
}

/// The approaches' own `lock` settings as a Markdown table (docs/ADDING.md carries it; a test
/// keeps the two the same), one row a setting, from its `Setting` alone.
pub fn settings_table() -> String {
    let mut out = String::from("| approach | field | range | default | what it is |\n|---|---|---|---|---|\n");
    for a in Approach::ALL {
        for x in a.spec().config.settings {
            let n = x.number();
            let (range, default) = match x.kind() {
                Kind::Number => (format!("{}..={} {}", n.lo, n.hi, n.unit), x.default().to_string()),
                Kind::Flag => ("true or false".to_string(), x.show(x.default())),
                Kind::Named(names) => (names.join(" or "), x.show(x.default())),
            };
            let per_client = if a.spec().config.per_client.contains(&x.name()) { " (per client too)" } else { "" };
            out += &format!("| {} | `lock.{}` | {range} | {default} | {}{per_client} |\n", a.id(), x.name(), x.why());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_adding_carries_the_settings_table_as_the_specs_write_it() {
        let docs = include_str!("../../docs/ADDING.md");
        let table = settings_table();
        assert!(docs.contains(&table), "docs/ADDING.md should carry this table:\n{table}");
    }

    #[test]
    fn approaches_are_listed_once_in_variant_order() {
        for (i, a) in Approach::ALL.into_iter().enumerate() {
            assert_eq!(a as usize, i);
            assert_eq!(Approach::by_id(a.id()), Some(a));
            // The variant's serde name (what scenario files write) is the spec's id.
            assert_eq!(serde_json::to_value(a).unwrap(), a.id());
        }
    }
}
