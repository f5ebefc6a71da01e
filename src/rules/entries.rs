//! An order-preserving YAML mapping that keeps duplicate keys.
//!
//! Setup tables are keyed by names (`Germany: {infantry: 4}`). A plain map
//! would silently drop one of two keys that differ only by case, or make the
//! YAML parser stop at the first duplicate; keeping every entry lets the
//! validator report each duplicate with its path, together with all the
//! other problems.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// The entries of a YAML mapping, in file order, duplicates included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entries<V>(pub Vec<(String, V)>);

impl<V> Default for Entries<V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<V> Entries<V> {
    /// Iterates over `(key, value)` pairs in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// True when the mapping has no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl<V> FromIterator<(String, V)> for Entries<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        Entries(iter.into_iter().collect())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Entries<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<V>(PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<V> {
            type Value = Entries<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping of names to values")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some((key, value)) = map.next_entry::<String, V>()? {
                    entries.push((key, value));
                }
                Ok(Entries(entries))
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                // `units:` with nothing after it is an empty table, not an error.
                Ok(Entries(Vec::new()))
            }
        }

        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}
