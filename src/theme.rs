//! The page's and a figure's colour theme: light (the default), dark (for screens) and
//! projector (light, heavier strokes and higher contrast, for a washed-out beamer). The
//! colours themselves are CSS, one palette per theme in styles/diagram.css, selected by
//! `data-theme` on the root element; this is only which one is shown, and why.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    Light,
    Dark,
    Projector,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Light, Theme::Dark, Theme::Projector];

    /// The name a link (`?theme=`), the CLI (`--theme`) and `data-theme` use.
    pub fn id(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Projector => "projector",
        }
    }

    pub fn by_id(id: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.id() == id)
    }

    /// The theme shown when none is chosen (by link or key): a lecture's room gets the
    /// projector's, a screen whose owner asked for dark (`prefers-color-scheme`) gets dark.
    pub fn shown(chosen: Option<Theme>, lecture: bool, prefers_dark: bool) -> Theme {
        match chosen {
            Some(t) => t,
            None if lecture => Theme::Projector,
            None if prefers_dark => Theme::Dark,
            None => Theme::Light,
        }
    }

    /// Its name on the header's button.
    pub fn label(self) -> &'static str {
        match self {
            Theme::Light => "Light",
            Theme::Dark => "Dark",
            Theme::Projector => "Projector",
        }
    }

    /// The next theme in the order the key (T) steps through them.
    pub fn next(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Projector,
            Theme::Projector => Theme::Light,
        }
    }

    /// The stylesheet rule whose variables are this theme's palette over the light one
    /// (`:root`); None for light, which is `:root` itself.
    pub fn selector(self) -> Option<&'static str> {
        match self {
            Theme::Light => None,
            Theme::Dark => Some(r#"[data-theme="dark"]"#),
            Theme::Projector => Some(r#"[data-theme="projector"]"#),
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_theme_wins_then_the_lecture_then_the_screen() {
        assert_eq!(Theme::shown(Some(Theme::Light), true, true), Theme::Light);
        assert_eq!(Theme::shown(None, true, true), Theme::Projector);
        assert_eq!(Theme::shown(None, false, true), Theme::Dark);
        assert_eq!(Theme::shown(None, false, false), Theme::Light);
    }

    #[test]
    fn ids_round_trip_and_the_key_visits_every_theme() {
        for t in Theme::ALL {
            assert_eq!(Theme::by_id(t.id()), Some(t));
        }
        assert_eq!(Theme::by_id("blue"), None);
        let mut seen = vec![Theme::Light];
        while seen.len() < 4 {
            seen.push(seen.last().unwrap().next());
        }
        assert_eq!(seen, [Theme::Light, Theme::Dark, Theme::Projector, Theme::Light]);
    }

    #[test]
    fn every_theme_but_light_has_its_rule_in_the_stylesheet() {
        let css = include_str!("../styles/diagram.css");
        for t in Theme::ALL {
            if let Some(sel) = t.selector() {
                assert!(css.contains(&format!("{sel} {{")), "{sel}");
            }
        }
    }
}
