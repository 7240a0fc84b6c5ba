//! The distinct answer texts of a batch, so that each is parsed once however often it recurs
//! (a training step's rollouts of one prompt share its ground truth, and often their answers).

use std::hash::Hash;

use super::equivalence::Answer;
use crate::hash::FastMap;
use crate::parallel::{map_cheap_items, ItemPanic};

/// Keys numbered in order of first sight, so that work keyed by them is done once per
/// distinct key.
#[derive(Debug)]
pub struct Numbering<K> {
    index: FastMap<K, usize>,
    keys: Vec<K>,
}

impl<K> Default for Numbering<K> {
    fn default() -> Self {
        Numbering { index: FastMap::default(), keys: Vec::new() }
    }
}

impl<K: Hash + Eq + Clone> Numbering<K> {
    /// The number of `key`, adding it on first sight (the only time it is cloned).
    pub fn id(&mut self, key: K) -> usize {
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        self.keys.push(key.clone());
        self.index.insert(key, self.keys.len() - 1);
        self.keys.len() - 1
    }

    /// The distinct keys, indexed by [`Self::id`].
    pub fn keys(&self) -> &[K] {
        &self.keys
    }
}

/// Texts numbered in order of first sight.
#[derive(Debug, Default)]
pub struct DistinctTexts<'s>(Numbering<&'s str>);

impl<'s> DistinctTexts<'s> {
    /// The number of `text`, adding it on first sight.
    pub fn id(&mut self, text: &'s str) -> usize {
        self.0.id(text)
    }

    /// Every distinct text parsed, on `threads` workers, indexed by [`Self::id`]; a text whose
    /// parse panics gives its `Err`.
    pub fn parse(&self, threads: Option<usize>) -> Vec<Result<Answer, ItemPanic>> {
        map_cheap_items(self.0.keys(), threads, |text| Answer::parse(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_each_text_once_in_order_of_first_sight() {
        let mut d = DistinctTexts::default();
        let ids: Vec<usize> = ["1/2", "3", "1/2", "x", "3"].iter().map(|t| d.id(t)).collect();
        assert_eq!(ids, [0, 1, 0, 2, 1]);
        let parsed = d.parse(Some(2));
        assert_eq!(parsed.len(), 3);
        assert_eq!(parsed[1].as_ref().unwrap().canonical(), "3");
    }
}
