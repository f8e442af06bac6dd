//! The name table shared by a file and everything it imports: named types in registration
//! order, and protocol messages in definition order.

use std::collections::HashMap;

use crate::ast::{Message, NamedType};

/// Named types and messages collected so far.
#[derive(Debug, Default)]
pub(crate) struct Definitions {
    pub types: Vec<NamedType>,
    index: HashMap<String, usize>,
    pub messages: Vec<(String, Message)>,
    message_index: HashMap<String, usize>,
}

impl Definitions {
    /// The index of the type named `full_name`.
    pub fn lookup(&self, full_name: &str) -> Option<usize> {
        self.index.get(full_name).copied()
    }

    /// Adds a named type under `full_name`, which the caller has checked is not taken.
    pub fn insert(&mut self, full_name: String, named: NamedType) {
        self.index.insert(full_name, self.types.len());
        self.types.push(named);
    }

    /// Adds a message; a later message of the same name replaces the earlier one in its place.
    pub fn add_message(&mut self, name: String, message: Message) {
        match self.message_index.get(&name) {
            Some(&i) => self.messages[i].1 = message,
            None => {
                self.message_index.insert(name.clone(), self.messages.len());
                self.messages.push((name, message));
            }
        }
    }

    /// Every defined full name, for suggestions.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.index.keys().map(String::as_str)
    }
}
