//! A step's richer slide (issue 36, item 3): besides its text, a step may show a short bullet
//! list, definitions (term: meaning), a code block in a language, highlighted
//! (`highlight`), and a figure of any built-in at a moment, drawn by the export figure's code
//! (`timeline::draw::export`, the app's diagram) with a caption computed from the trace there.
//! Read by `read`, sized by `fit`, drawn by the lesson view, the handout and the guide.

use super::format::{caption_at, Cursor};
use crate::lab::{self, Run};
use crate::scenario::{catalog, Scenario};
use crate::theme::Theme;
use crate::timeline::draw::geometry::lecture_scale;
use crate::timeline::draw::{export, Geometry};
use crate::timeline::Timeline;

/// Everything a step shows under its text; each part optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Blocks {
    /// Short bullet points, in order.
    pub list: Vec<String>,
    pub definitions: Vec<Definition>,
    pub code: Option<Code>,
    pub figure: Option<Figure>,
}

impl Blocks {
    /// Whether a figure stands beside other blocks (two columns) rather than under them.
    pub fn beside(&self) -> bool {
        self.figure.is_some() && (!self.list.is_empty() || !self.definitions.is_empty() || self.code.is_some())
    }

    /// The widths, in CSS px of the 1280×720 slide, of the blocks' column and the figure's.
    pub fn columns(&self) -> (f64, f64) {
        let w = super::fit::STAGES[0].slide.0;
        if self.beside() {
            let both = w - BESIDE_GAP;
            (both * (1.0 - FIGURE_SHARE), both * FIGURE_SHARE)
        } else {
            (w, w)
        }
    }

    /// The figure drawn for its place on the slide (`Figure::draw`).
    pub fn draw_figure(&self, theme: Theme, css: &str) -> Option<Drawn> {
        let scale = lecture_scale(1280.0, 720.0);
        self.figure.as_ref()?.draw(self.columns().1 / scale, theme, css)
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.definitions.is_empty() && self.code.is_none() && self.figure.is_none()
    }

    /// The blocks in a few words, for the teacher's guide: "a list of 3; Lua code, 5 lines; a
    /// figure of `redis-gc-pause` at 15505 ms".
    pub fn summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.list.is_empty() {
            parts.push(format!("a list of {}", self.list.len()));
        }
        if !self.definitions.is_empty() {
            let terms: Vec<&str> = self.definitions.iter().map(|d| d.term.as_str()).collect();
            parts.push(format!("definitions: {}", terms.join(", ")));
        }
        if let Some(c) = &self.code {
            parts.push(format!("{} code, {} lines", c.language.label(), c.lines.len()));
        }
        if let Some(f) = &self.figure {
            parts.push(format!("a figure of `{}` at {} ms", f.builtin, f.at_ms));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// The words the blocks put on screen, each a line as shown ("term — meaning"; a figure's
    /// caption): what a question's asking screen is searched in (`fair`).
    pub fn words(&self) -> Vec<String> {
        let mut out: Vec<String> = self.list.clone();
        out.extend(self.definitions.iter().map(|d| format!("{} — {}", d.term, d.meaning)));
        out.extend(self.code.iter().flat_map(|c| c.lines.iter().cloned()));
        out.extend(self.draw_figure(Theme::Projector, "").map(|d| d.caption));
        out
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub term: String,
    pub meaning: String,
}

/// The languages a code block may be written in: the ones the lessons quote (the Redis unlock
/// in Lua, a fencing check in SQL, a client in Go) and plain text, which nothing colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Lua,
    Sql,
    Go,
    Text,
}

impl Language {
    /// Every name, in the order the docs and errors list them.
    pub const NAMES: &'static [(&'static str, Language)] =
        &[("lua", Language::Lua), ("sql", Language::Sql), ("go", Language::Go), ("text", Language::Text)];

    pub fn name(self) -> &'static str {
        Language::NAMES.iter().find(|(_, l)| *l == self).map_or("text", |(n, _)| n)
    }

    /// Its name in a sentence: "Lua", "SQL", "Go", "Text".
    pub fn label(self) -> &'static str {
        match self {
            Language::Lua => "Lua",
            Language::Sql => "SQL",
            Language::Go => "Go",
            Language::Text => "Text",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    pub language: Language,
    /// The lines as written (no tabs: the reader refuses them, a tab's width is the viewer's).
    pub lines: Vec<String>,
}

/// A built-in drawn at a moment, with its switches (as a step's).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub builtin: String,
    pub at_ms: i64,
    pub fencing: Option<bool>,
    pub safe_unlock: Option<bool>,
}

/// A figure's drawing is laid out for the 1280×720 slide (`fit::STAGES[0]`) in the drawing's
/// own px: its box's width over the stage's lecture scale (18 px type from a 14 px drawing), and
/// `FIGURE_HEIGHT` high, its lanes fitted to it (`Geometry::fitted`). The view sets it at its
/// box's width, so its type is the stage's at any screen (the stage grows in proportion: 27 px
/// at 1920×1080), as the diagram's is.
pub const FIGURE_HEIGHT: f64 = 250.0;

/// Beside a list, definitions or code, a figure takes this share of the slide's width (the
/// blocks the rest, `BESIDE_GAP` px apart): each alone would leave the other no height.
pub const FIGURE_SHARE: f64 = 0.55;
pub const BESIDE_GAP: f64 = 16.0;

/// A figure ready to show: its SVG (no XML declaration: it goes inline in a page, which styles
/// it with its own stylesheet and theme) and its caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    pub svg: String,
    pub caption: String,
    /// Its height over its width: what the fit estimate needs.
    pub aspect: f64,
}

impl Figure {
    /// The built-in with the figure's switches. None for an unknown id (the reader refuses it).
    pub fn scenario(&self) -> Option<Scenario> {
        Some(super::format::switched(catalog::get(&self.builtin)?, self.fencing, self.safe_unlock))
    }

    pub fn run(&self) -> Option<Run> {
        self.scenario().map(|s| lab::run(&s))
    }

    /// The figure drawn: the export figure of its run at `at_ms` (the app's diagram, by the same
    /// scene code), laid out on the lecture stage `width` own px wide and `FIGURE_HEIGHT` high,
    /// in `theme`'s colours with `css` inlined (a handout's paper), or with no stylesheet of its
    /// own (`css` empty: the page's applies, in the page's theme); and the caption the app shows
    /// with the cursor stopped there.
    pub fn draw(&self, width: f64, theme: Theme, css: &str) -> Option<Drawn> {
        let run = self.run()?;
        let timeline = Timeline::of_run(&run);
        let g = Geometry::fitted(&timeline, width, FIGURE_HEIGHT, true);
        let svg = export::figure_in(&run, &timeline, self.at_ms, &g, theme, css);
        let svg = svg.split_once("?>\n").map_or(svg.clone(), |(_, rest)| rest.to_string());
        // At a key moment's millisecond the caption is that moment's (the rejected write, not
        // the release sent in the same millisecond), as the app captions a key moment.
        let ms = self.at_ms.clamp(0, timeline.duration_ms);
        let cursor = Cursor { ms, event: timeline.key_moments.iter().find(|k| k.at == ms).map(|k| k.event) };
        let caption = caption_at(&run, &timeline, cursor).unwrap_or_else(|| format!("{} at the start", run.scenario.title));
        Some(Drawn { svg, caption, aspect: g.height / g.width })
    }
}

/// Roles of a code block's pieces: each drawn in its theme's colour (`styles/lesson.css`, the
/// palette's `--code-*` in styles/diagram.css), and the class its span carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Plain,
    Keyword,
    String,
    Comment,
    Number,
}

impl Role {
    /// The span's class (None: plain text, no span).
    pub fn class(self) -> Option<&'static str> {
        match self {
            Role::Plain => None,
            Role::Keyword => Some("tok-kw"),
            Role::String => Some("tok-str"),
            Role::Comment => Some("tok-com"),
            Role::Number => Some("tok-num"),
        }
    }
}

/// A highlighter written here rather than taken from a crate: the lessons need four roles in
/// three small languages, and a highlighting crate (syntect, tree-sitter) would add its
/// grammars and regex engine to the wasm bundle, hundreds of KB for a few slides.
///
/// One line at a time: a lesson's code is a few short lines, and a comment or a string that
/// spans lines is not among them (a block comment `/* … */` is coloured within its line).
pub fn highlight(language: Language, line: &str) -> Vec<(Role, &str)> {
    if language == Language::Text {
        return if line.is_empty() { Vec::new() } else { vec![(Role::Plain, line)] };
    }
    // Pieces as (role, start, end) byte ranges; a piece of the role before it joins it.
    let mut pieces: Vec<(Role, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let (role, end) = if line_comment(language, rest) {
            (Role::Comment, line.len())
        } else if rest.starts_with("/*") && language != Language::Lua {
            (Role::Comment, rest[2..].find("*/").map_or(line.len(), |j| i + 2 + j + 2))
        } else if c == '"' || c == '\'' || (c == '`' && language == Language::Go) {
            (Role::String, string_end(language, line, i, c))
        } else if c.is_ascii_digit() {
            (Role::Number, i + rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '.' || ch == '_')).unwrap_or(rest.len()))
        } else if c.is_alphabetic() || c == '_' {
            let end = i + rest.find(|ch: char| !(ch.is_alphanumeric() || ch == '_')).unwrap_or(rest.len());
            (if keyword(language, &line[i..end]) { Role::Keyword } else { Role::Plain }, end)
        } else {
            (Role::Plain, i + c.len_utf8())
        };
        match pieces.last_mut() {
            Some((r, _, e)) if *r == role && *e == i => *e = end,
            _ => pieces.push((role, i, end)),
        }
        i = end;
    }
    pieces.into_iter().map(|(r, a, b)| (r, &line[a..b])).collect()
}

fn line_comment(language: Language, rest: &str) -> bool {
    match language {
        Language::Lua | Language::Sql => rest.starts_with("--"),
        Language::Go => rest.starts_with("//"),
        Language::Text => false,
    }
}

/// Where the string opened by `quote` at `from` ends (after its closing quote; the line's end
/// when it is not closed). Lua and Go escape with a backslash (a Go raw string does not); SQL
/// doubles the quote.
fn string_end(language: Language, line: &str, from: usize, quote: char) -> usize {
    let bytes = line.as_bytes();
    let q = quote as u8;
    let mut i = from + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if language != Language::Sql && quote != '`' => i += 2,
            b if b == q && language == Language::Sql && bytes.get(i + 1) == Some(&q) => i += 2,
            b if b == q => return i + 1,
            _ => i += 1,
        }
    }
    line.len()
}

fn keyword(language: Language, word: &str) -> bool {
    const LUA: &[&str] = &[
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil", "not", "or",
        "repeat", "return", "then", "true", "until", "while",
    ];
    const SQL: &[&str] = &[
        "and",
        "as",
        "begin",
        "by",
        "case",
        "commit",
        "conflict",
        "create",
        "default",
        "delete",
        "do",
        "else",
        "end",
        "exists",
        "false",
        "from",
        "group",
        "in",
        "insert",
        "into",
        "is",
        "join",
        "key",
        "limit",
        "not",
        "nothing",
        "null",
        "on",
        "or",
        "order",
        "primary",
        "returning",
        "select",
        "set",
        "table",
        "then",
        "true",
        "update",
        "values",
        "when",
        "where",
    ];
    const GO: &[&str] = &[
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "false",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "nil",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "true",
        "type",
        "var",
    ];
    match language {
        Language::Lua => LUA.contains(&word),
        // SQL's keywords are the same in any case.
        Language::Sql => SQL.contains(&word.to_ascii_lowercase().as_str()),
        Language::Go => GO.contains(&word),
        Language::Text => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(language: Language, line: &str) -> Vec<(Role, String)> {
        highlight(language, line).into_iter().map(|(r, t)| (r, t.to_string())).collect()
    }

    #[test]
    fn pieces_join_to_the_line() {
        for (l, line) in [
            (Language::Lua, r#"if redis.call("get",KEYS[1]) == ARGV[1] then"#),
            (Language::Sql, "UPDATE resource SET value = $2 WHERE token <= $1; -- fenced"),
            (Language::Go, "if err := m.Lock(ctx); err != nil { // 10 s"),
            (Language::Text, "SET lock A NX PX 10000"),
            (Language::Lua, "return 'unterminated"),
            (Language::Go, "x := `raw \\ string` /* note */ + 0x1F"),
            (Language::Sql, "SELECT 'it''s' FROM t — ünïcode"),
        ] {
            let joined: String = highlight(l, line).iter().map(|(_, t)| *t).collect();
            assert_eq!(joined, line);
        }
    }

    #[test]
    fn lua_keywords_strings_numbers_and_comments() {
        use Role::*;
        assert_eq!(
            roles(Language::Lua, r#"if redis.call("get",KEYS[1]) == ARGV[1] then"#),
            vec![
                (Keyword, "if".into()),
                (Plain, " redis.call(".into()),
                (String, "\"get\"".into()),
                (Plain, ",KEYS[".into()),
                (Number, "1".into()),
                (Plain, "]) == ARGV[".into()),
                (Number, "1".into()),
                (Plain, "] ".into()),
                (Keyword, "then".into()),
            ]
        );
        assert_eq!(
            roles(Language::Lua, "    return 0 -- nothing"),
            vec![
                (Plain, "    ".into()),
                (Keyword, "return".into()),
                (Plain, " ".into()),
                (Number, "0".into()),
                (Plain, " ".into()),
                (Comment, "-- nothing".into())
            ]
        );
        // An escaped quote stays inside its string; a name with digits is no number.
        assert_eq!(roles(Language::Lua, r#"k2 = "a\"b""#)[1], (String, r#""a\"b""#.into()));
        assert_eq!(roles(Language::Lua, "k2")[0], (Plain, "k2".into()));
    }

    #[test]
    fn sql_keywords_in_any_case_and_doubled_quotes() {
        use Role::*;
        let r = roles(Language::Sql, "update t set v = 'it''s' where token <= $1");
        assert_eq!(r[0], (Keyword, "update".into()));
        assert!(r.contains(&(String, "'it''s'".into())) && r.contains(&(Keyword, "where".into())), "{r:?}");
        assert_eq!(roles(Language::Sql, "-- 0 rows: refused"), vec![(Comment, "-- 0 rows: refused".into())]);
    }

    #[test]
    fn go_comments_raw_strings_and_text_untouched() {
        use Role::*;
        let r = roles(Language::Go, "func f() { return `a\\` } // done");
        assert_eq!(r[0], (Keyword, "func".into()));
        assert!(r.contains(&(String, "`a\\`".into())) && r.last() == Some(&(Comment, "// done".into())), "{r:?}");
        assert_eq!(roles(Language::Text, "if x -- 1"), vec![(Plain, "if x -- 1".into())]);
        assert!(roles(Language::Text, "").is_empty());
    }
}
