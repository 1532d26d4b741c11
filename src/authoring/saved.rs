//! Scenarios saved under a name, kept in the browser's local storage as one value (so a save
//! that the browser refuses, e.g. over its quota, leaves the stored list as it was). The list
//! holds the draft's text as written, valid or not: a half-finished scenario can be saved too.

use crate::scenario::limits::MAX_SCENARIO_BYTES;

/// How many scenarios can be saved. With the 64 KiB scenario limit this stays inside the ~5 MB
/// most browsers give a site; the browser's own quota can still refuse a save, and says so.
pub const MAX_SAVED: usize = 30;
/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 60;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub name: String,
    pub json: String,
}

/// The saved scenarios, most recently saved first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedList {
    entries: Vec<Saved>,
}

/// What a save did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saving {
    Added,
    Replaced,
}

/// A name as it is stored: trimmed, 1..=60 characters.
pub fn check_name(name: &str) -> Result<&str, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("Give the scenario a name to save it under.".into());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("The name is too long: at most {MAX_NAME_CHARS} characters."));
    }
    Ok(name)
}

impl SavedList {
    /// Reads the stored value. An unreadable one is an error, never an empty list: saving over
    /// it would destroy what it holds.
    pub fn from_storage(text: &str) -> Result<SavedList, String> {
        let pairs: Vec<(String, String)> =
            serde_json::from_str(text).map_err(|e| format!("the saved scenarios stored in this browser are unreadable ({e})"))?;
        Ok(SavedList { entries: pairs.into_iter().map(|(name, json)| Saved { name, json }).collect() })
    }

    /// The stored value: `[["name", "scenario json"], …]`.
    pub fn to_storage(&self) -> String {
        let pairs: Vec<(&str, &str)> = self.entries.iter().map(|s| (s.name.as_str(), s.json.as_str())).collect();
        serde_json::to_string(&pairs).unwrap_or_default()
    }

    pub fn entries(&self) -> &[Saved] {
        &self.entries
    }

    pub fn get(&self, name: &str) -> Option<&Saved> {
        self.entries.iter().find(|s| s.name == name.trim())
    }

    /// Saves `json` under `name`, first in the list; a save under an existing name replaces it.
    pub fn save(&mut self, name: &str, json: &str) -> Result<Saving, String> {
        let name = check_name(name)?;
        if json.len() > MAX_SCENARIO_BYTES {
            return Err(format!("The draft is {} bytes; a scenario can be at most {MAX_SCENARIO_BYTES}.", json.len()));
        }
        let old = self.entries.iter().position(|s| s.name == name);
        if old.is_none() && self.entries.len() >= MAX_SAVED {
            return Err(format!("{MAX_SAVED} saved scenarios is the limit: delete one first."));
        }
        if let Some(i) = old {
            self.entries.remove(i);
        }
        self.entries.insert(0, Saved { name: name.to_string(), json: json.to_string() });
        Ok(if old.is_some() { Saving::Replaced } else { Saving::Added })
    }

    pub fn delete(&mut self, name: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|s| s.name != name);
        self.entries.len() != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(l: &SavedList) -> Vec<&str> {
        l.entries().iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn the_latest_save_comes_first_and_a_same_name_save_replaces() {
        let mut l = SavedList::default();
        assert_eq!(l.save("one", "1"), Ok(Saving::Added));
        assert_eq!(l.save(" two ", "2"), Ok(Saving::Added));
        assert_eq!(names(&l), ["two", "one"]);
        assert_eq!(l.save("one", "1b"), Ok(Saving::Replaced));
        assert_eq!(names(&l), ["one", "two"]);
        assert_eq!(l.get("one").unwrap().json, "1b");
        assert!(l.delete("two"));
        assert!(!l.delete("two"));
        assert_eq!(names(&l), ["one"]);
    }

    #[test]
    fn names_and_sizes_are_bounded() {
        let mut l = SavedList::default();
        assert!(l.save("   ", "{}").is_err());
        assert!(l.save(&"x".repeat(MAX_NAME_CHARS + 1), "{}").is_err());
        assert!(l.save("big", &" ".repeat(MAX_SCENARIO_BYTES + 1)).is_err());
        for i in 0..MAX_SAVED {
            l.save(&format!("s{i}"), "{}").unwrap();
        }
        assert!(l.save("one more", "{}").unwrap_err().contains("limit"));
        // Replacing one is still allowed at the limit.
        assert_eq!(l.save("s3", "{}"), Ok(Saving::Replaced));
        assert_eq!(l.entries().len(), MAX_SAVED);
    }

    #[test]
    fn the_list_round_trips_through_storage_text() {
        let mut l = SavedList::default();
        l.save("quotes \" and\nnewlines ✓", "{\"version\": 1,\n \"approach\": \"etcd\"}").unwrap();
        l.save("invalid draft", "{ not json").unwrap();
        let back = SavedList::from_storage(&l.to_storage()).unwrap();
        assert_eq!(back, l);
    }

    #[test]
    fn an_unreadable_stored_list_is_an_error_not_an_empty_list() {
        assert!(SavedList::from_storage("{\"oops\": 1}").is_err());
        assert!(SavedList::from_storage("").is_err());
        assert_eq!(SavedList::from_storage("[]"), Ok(SavedList::default()));
    }
}
