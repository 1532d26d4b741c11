//! The scenario the user is writing: its JSON text, which is the whole truth, and what the form
//! needs to show it. Nothing here throws the user's text away: a form input the field cannot
//! take leaves the draft as it was, and replacing the draft (an import, loading a saved
//! scenario) keeps the text it replaced until the next replacement.

use std::rc::Rc;

use super::form::{self, Edit};
use crate::scenario::{validate::ScenarioError, Scenario};

#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub text: String,
    /// The draft as the form shows it. While the JSON is unreadable (mid-typing), this is the
    /// last readable version, shown disabled, so the form does not vanish under the user.
    pub form: Option<Rc<Scenario>>,
    /// Whether `form` is the draft as it is now (the form can edit it).
    pub form_current: bool,
    /// A form input its field cannot take (`12a` as a time). The draft keeps its last good value.
    pub input_error: Option<ScenarioError>,
    /// The text the last import or load replaced, so it can be restored.
    pub previous: Option<String>,
}

impl Draft {
    pub fn new(text: String) -> Draft {
        let mut d = Draft { text: String::new(), form: None, form_current: false, input_error: None, previous: None };
        d.set_text(text);
        d
    }

    fn set_text(&mut self, text: String) {
        match form::read(&text) {
            Ok(s) => {
                self.form = Some(Rc::new(s));
                self.form_current = true;
            }
            Err(_) => self.form_current = false,
        }
        self.text = text;
        self.input_error = None;
    }

    /// The user typed in the JSON.
    pub fn type_json(&mut self, text: String) {
        self.set_text(text);
    }

    /// The user changed the form.
    pub fn edit(&mut self, edit: &Edit) {
        match form::apply(&self.text, edit) {
            Ok(text) => self.set_text(text),
            Err(e) => self.input_error = Some(e),
        }
    }

    /// The draft is replaced by a file, a saved scenario or the scenario on screen; what it held
    /// stays restorable.
    pub fn replace(&mut self, text: String) {
        if text != self.text {
            self.previous = Some(std::mem::take(&mut self.text));
        }
        self.set_text(text);
    }

    /// Undoes the last replacement (and makes it undoable in turn).
    pub fn restore(&mut self) {
        if let Some(p) = self.previous.take() {
            self.replace(p);
        }
    }

    /// What running the draft now would give: the form's refusal first, then the CLI's
    /// validation of the text.
    pub fn check(&self) -> Result<Scenario, ScenarioError> {
        match &self.input_error {
            Some(e) => Err(e.clone()),
            None => crate::scenario::parse(&self.text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authoring::form::Field;

    const GOOD: &str = r#"{"version": 1, "approach": "redis"}"#;

    #[test]
    fn the_form_follows_the_json_and_keeps_the_last_readable_version() {
        let mut d = Draft::new(GOOD.into());
        assert!(d.form_current);
        d.type_json(r#"{"version": 1, "approach": "redis""#.into());
        assert!(!d.form_current);
        assert_eq!(d.form.as_ref().unwrap().approach, crate::scenario::Approach::Redis);
        assert!(d.check().is_err());
    }

    #[test]
    fn a_refused_form_input_keeps_the_draft_and_is_reported_first() {
        let mut d = Draft::new(GOOD.into());
        d.edit(&Edit::Set(Field::TtlMs, "x".into()));
        assert_eq!(d.text, GOOD);
        assert_eq!(d.check().unwrap_err().path, "lock.ttl_ms");
        d.edit(&Edit::Set(Field::TtlMs, "5000".into()));
        assert_eq!(d.check().unwrap().lock.ttl_ms, 5000);
    }

    #[test]
    fn a_replaced_draft_can_be_restored_even_when_the_new_one_is_garbage() {
        let mut d = Draft::new(GOOD.into());
        d.replace("\u{89}PNG not json".into());
        assert!(d.check().is_err());
        assert_eq!(d.previous.as_deref(), Some(GOOD));
        d.restore();
        assert_eq!(d.text, GOOD);
        assert!(d.form_current);
        assert_eq!(d.previous.as_deref(), Some("\u{89}PNG not json"));
    }
}
