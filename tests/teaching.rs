//! docs/TEACHING.md is the lessons' own guide (`lesson::guide`): it must say what the lessons
//! say. When a lesson changes, regenerate it with
//! `cargo run --bin locklab -- lesson guide -o docs/TEACHING.md`.

use locklab::lesson::{builtin, guide};
use locklab::scenario::catalog;

#[test]
fn the_teaching_guide_is_the_lessons_own() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/TEACHING.md")).unwrap();
    let want = guide::markdown(&builtin::all(), &catalog::all());
    if page != want {
        let at = page.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(page.lines().count().min(want.lines().count()));
        panic!(
            "docs/TEACHING.md differs from the lessons from line {} on; regenerate it: cargo run --bin locklab -- lesson guide -o docs/TEACHING.md\n  page: {:?}\n  want: {:?}",
            at + 1,
            page.lines().nth(at),
            want.lines().nth(at)
        );
    }
}

#[test]
fn every_lesson_has_its_aims_and_every_step_its_link_and_answer() {
    let page = guide::markdown(&builtin::all(), &catalog::all());
    for lesson in builtin::all() {
        assert!(!lesson.aims.is_empty(), "{}: a built-in lesson says what it is for", lesson.id);
        for aim in &lesson.aims {
            assert!(page.contains(&format!("- {aim}")), "{aim}");
        }
        for (i, step) in lesson.steps.iter().enumerate() {
            assert!(
                page.contains(&format!("[{}]({}?lesson={}&step={})", i + 1, guide::APP, lesson.id, i + 1)),
                "{} step {}",
                lesson.id,
                i + 1
            );
            if let Some(q) = &step.question {
                assert!(
                    page.contains(&format!("{} (choice {})", q.choices[q.answer].replace('|', "\\|"), q.answer + 1)),
                    "{}: {}",
                    lesson.id,
                    q.prompt
                );
            }
        }
    }
    for s in catalog::all() {
        assert!(page.contains(&format!("?scenario={}&lecture=1", s.id)), "{}", s.id);
    }
}
