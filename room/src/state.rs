//! The room's state, without sockets: the question on screen, every question's votes (one per
//! voter id, kept while the server runs, so going back a step finds the room's answer), and the
//! counts the stage sees. The server (server.rs) holds it behind one mutex.

use std::collections::{BTreeMap, HashMap};

use crate::protocol::{Question, ToStage, ToVoter, MAX_VOTERS_PER_QUESTION};

/// One question's votes: each voter's choice, and the counts they make.
#[derive(Debug, Default)]
struct Tally {
    choices: Vec<String>,
    /// Looked up by voter id, never iterated (the counts are kept beside it).
    votes: HashMap<String, usize>,
    counts: Vec<u32>,
}

#[derive(Debug, Default)]
pub struct State {
    /// The question on screen, if any.
    current: Option<Question>,
    /// Each question's tally, by lesson and step.
    tallies: BTreeMap<(String, usize), Tally>,
    /// Grows by one with every vote counted or moved.
    seq: u64,
    /// Voters' sockets open now.
    pub voters_online: usize,
}

impl State {
    /// The stage's question becomes the current one. The same lesson and step with the same
    /// choices keeps its votes (a reveal, a step back and forth, a stage reload); other choices
    /// under the same lesson and step (an edited lesson) start a new tally.
    pub fn set_question(&mut self, q: Option<Question>) {
        if let Some(q) = &q {
            let tally = self.tallies.entry((q.lesson.clone(), q.step)).or_default();
            if tally.choices != q.choices {
                *tally = Tally { choices: q.choices.clone(), votes: HashMap::new(), counts: vec![0; q.choices.len()] };
            }
        }
        self.current = q;
    }

    fn tally(&self) -> Option<(&Question, &Tally)> {
        let q = self.current.as_ref()?;
        Some((q, &self.tallies[&(q.lesson.clone(), q.step)]))
    }

    /// Counts `voter`'s vote for `choice` on the question `lesson`/`step`: a voter has one vote
    /// per question; voting again before the reveal moves it (counted once), the same choice
    /// again changes nothing. Returns the seq from which the stage's counts include it.
    pub fn vote(&mut self, voter: &str, lesson: &str, step: usize, choice: usize) -> Result<u64, String> {
        let q = self.current.as_ref().ok_or("vote: no question is open now")?;
        if q.lesson != lesson || q.step != step {
            return Err(format!("vote: that question (lesson {lesson}, step {step}) is no longer on screen"));
        }
        if q.revealed {
            return Err("vote: voting on this question closed at the reveal".into());
        }
        let tally = self.tallies.get_mut(&(q.lesson.clone(), q.step)).expect("the current question has a tally");
        if choice >= tally.counts.len() {
            return Err(format!("vote.choice: {choice} is not a choice of this question (0 to {})", tally.counts.len() - 1));
        }
        let before = tally.votes.get(voter).copied();
        if before.is_none() && tally.votes.len() >= MAX_VOTERS_PER_QUESTION {
            return Err(format!("vote: this question has {MAX_VOTERS_PER_QUESTION} voters, the most a question counts"));
        }
        if before != Some(choice) {
            if let Some(b) = before {
                tally.counts[b] -= 1;
            }
            tally.counts[choice] += 1;
            tally.votes.insert(voter.to_string(), choice);
            self.seq += 1;
        }
        Ok(self.seq)
    }

    /// What the stage sees now: the current question's counts (None: no question).
    pub fn counts(&self) -> Option<ToStage> {
        let (q, t) = self.tally()?;
        Some(ToStage::Counts {
            lesson: q.lesson.clone(),
            step: q.step,
            counts: t.counts.clone(),
            votes: t.counts.iter().sum(),
            voters: self.voters_online,
            seq: self.seq,
        })
    }

    /// What `voter` sees now: the question (never its answer: the state has none) and its vote.
    pub fn for_voter(&self, voter: Option<&str>) -> ToVoter {
        match self.tally() {
            None => ToVoter::Idle,
            Some((q, t)) => ToVoter::Question {
                lesson: q.lesson.clone(),
                step: q.step,
                prompt: q.prompt.clone(),
                choices: q.choices.clone(),
                open: !q.revealed,
                yours: voter.and_then(|v| t.votes.get(v).copied()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(step: usize, n: usize) -> Question {
        Question {
            lesson: "clocks".into(),
            step,
            prompt: "Does it hold?".into(),
            choices: (0..n).map(|i| format!("choice {i}")).collect(),
            revealed: false,
        }
    }

    fn counts(s: &State) -> Vec<u32> {
        match s.counts() {
            Some(ToStage::Counts { counts, .. }) => counts,
            other => panic!("no counts: {other:?}"),
        }
    }

    #[test]
    fn one_vote_per_voter_moved_not_added() {
        let mut s = State::default();
        s.set_question(Some(q(2, 3)));
        assert_eq!(s.vote("phone-0001", "clocks", 2, 0), Ok(1));
        assert_eq!(s.vote("phone-0001", "clocks", 2, 0), Ok(1), "the same vote again changes nothing");
        assert_eq!(s.vote("phone-0001", "clocks", 2, 2), Ok(2));
        assert_eq!(s.vote("phone-0002", "clocks", 2, 2), Ok(3));
        assert_eq!(counts(&s), vec![0, 0, 2]);
    }

    #[test]
    fn votes_survive_a_step_away_and_back_and_close_at_the_reveal() {
        let mut s = State::default();
        s.set_question(Some(q(2, 2)));
        s.vote("phone-0001", "clocks", 2, 1).unwrap();
        s.set_question(Some(q(4, 3)));
        assert_eq!(counts(&s), vec![0, 0, 0]);
        assert!(s.vote("phone-0001", "clocks", 2, 1).unwrap_err().contains("no longer on screen"));
        s.set_question(Some(Question { revealed: true, ..q(2, 2) }));
        assert_eq!(counts(&s), vec![0, 1]);
        assert_eq!(s.vote("phone-0002", "clocks", 2, 0), Err("vote: voting on this question closed at the reveal".into()));
        match s.for_voter(Some("phone-0001")) {
            ToVoter::Question { open, yours, .. } => assert_eq!((open, yours), (false, Some(1))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_bad_choice_is_named() {
        let mut s = State::default();
        assert_eq!(s.vote("phone-0001", "clocks", 2, 0), Err("vote: no question is open now".into()));
        s.set_question(Some(q(2, 2)));
        assert_eq!(s.vote("phone-0001", "clocks", 2, 5), Err("vote.choice: 5 is not a choice of this question (0 to 1)".into()));
    }
}
