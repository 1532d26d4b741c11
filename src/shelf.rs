//! Where the browser app keeps the data it fetched: the built-in scenarios, the lessons and the
//! recorded real runs (`crate::library`). Natively those are compiled in from their JSON files;
//! the app's wasm never carries them (issue 38: most page views use one built-in of the 45, no
//! lesson and no recording), so in the browser each module reads its list from a shelf that the
//! page fills as the files arrive. One thread: the wasm app has one, and a native program never
//! puts anything on a shelf.

use std::cell::RefCell;
use std::rc::Rc;

/// A value that arrives later, read as the same `Rc` until the next delivery replaces it.
pub struct Shelf<T>(RefCell<Option<Rc<T>>>);

impl<T> Shelf<T> {
    pub const fn new() -> Shelf<T> {
        Shelf(RefCell::new(None))
    }

    /// Puts `value` on the shelf, in place of what was there.
    pub fn put(&self, value: T) {
        *self.0.borrow_mut() = Some(Rc::new(value));
    }

    /// What is on the shelf; None until the first delivery.
    pub fn get(&self) -> Option<Rc<T>> {
        self.0.borrow().clone()
    }
}

impl<T> Default for Shelf<T> {
    fn default() -> Shelf<T> {
        Shelf::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Shelf;

    #[test]
    fn a_delivery_replaces_the_last() {
        let shelf = Shelf::new();
        assert!(shelf.get().is_none());
        shelf.put(vec![1]);
        shelf.put(vec![1, 2]);
        assert_eq!(*shelf.get().unwrap(), [1, 2]);
    }
}
