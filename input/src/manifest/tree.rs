//! The YAML of one document as a tree that knows where each node was written, and a serde
//! `Deserializer` over it that knows the field path it is at. Errors from the Kubernetes API
//! types then name the line, the column and the path (`spec.template.spec.containers[0]
//! .resources`), and a key the type does not know is a warning with the closest name it does.

use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::fmt;

/// A line and a column, both from 1 (0: unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Loc {
    pub line: u64,
    pub column: u64,
}

impl Loc {
    fn of(l: &serde_saphyr::Location) -> Loc {
        Loc {
            line: l.line(),
            column: l.column(),
        }
    }
}

/// A node of the tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Tree>),
    /// Keys in the order written, each with where it was written.
    Map(Vec<(String, Loc, Tree)>),
}

/// A node and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    pub node: Node,
    pub loc: Loc,
}

impl Tree {
    /// The value under `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Tree> {
        match &self.node {
            Node::Map(m) => m.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
            _ => None,
        }
    }
    pub fn str(&self) -> Option<&str> {
        match &self.node {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }
    /// The node at a path such as `spec.template.spec.containers[0].image`, or the deepest
    /// node on the way that exists (with the location of its key where there is one).
    pub fn locate(&self, path: &str) -> Loc {
        let mut here = self;
        let mut loc = self.loc;
        for part in path.split('.').filter(|p| !p.is_empty()) {
            let (key, indices) = match part.find('[') {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            if !key.is_empty() {
                match &here.node {
                    Node::Map(m) => match m.iter().find(|(k, _, _)| k == key) {
                        Some((_, kl, v)) => {
                            loc = *kl;
                            here = v;
                        }
                        None => return loc,
                    },
                    _ => return loc,
                }
            }
            for ix in indices.split(']').filter_map(|s| s.strip_prefix('[')) {
                let Ok(i) = ix.parse::<usize>() else {
                    return loc;
                };
                match &here.node {
                    Node::Seq(items) if i < items.len() => {
                        here = &items[i];
                        loc = here.loc;
                    }
                    _ => return loc,
                }
            }
        }
        loc
    }
}

/// Scalar keys as the text they are written as (`80: x` is the key `80`).
fn key_text(n: &Node) -> String {
    match n {
        Node::Null => "null".into(),
        Node::Bool(b) => b.to_string(),
        Node::Int(i) => i.to_string(),
        Node::UInt(i) => i.to_string(),
        Node::Float(f) => f.to_string(),
        Node::Str(s) => s.clone(),
        Node::Seq(_) | Node::Map(_) => "<complex key>".into(),
    }
}

impl<'de> de::Deserialize<'de> for Tree {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        let s: serde_saphyr::Spanned<Node> = serde_saphyr::Spanned::deserialize(d)?;
        Ok(Tree {
            node: s.value,
            loc: Loc::of(&s.referenced),
        })
    }
}

impl<'de> de::Deserialize<'de> for Node {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
                <Node as de::Deserialize>::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
                Ok(match i64::try_from(v) {
                    Ok(i) => Node::Int(i),
                    Err(_) => Node::UInt(v),
                })
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(t) = a.next_element::<Tree>()? {
                    items.push(t);
                }
                Ok(Node::Seq(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut items: Vec<(String, Loc, Tree)> = Vec::new();
                while let Some(k) = a.next_key::<Tree>()? {
                    let v: Tree = a.next_value()?;
                    let key = key_text(&k.node);
                    // A key given twice: the last one wins, as in the API server's decoder.
                    items.retain(|(old, _, _)| *old != key);
                    items.push((key, k.loc, v));
                }
                Ok(Node::Map(items))
            }
        }
        d.deserialize_any(V)
    }
}

/// A field the type does not know: its path, where it was written, and the closest known
/// name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownField {
    pub path: String,
    pub loc: Loc,
    pub closest: Option<String>,
}

/// An error while reading a typed object from the tree: the message and where.
#[derive(Debug)]
pub struct DeError {
    pub msg: String,
    pub at: Option<(String, Loc)>,
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError {
            msg: msg.to_string(),
            at: None,
        }
    }
}

impl DeError {
    fn here(mut self, path: &str, loc: Loc) -> Self {
        if self.at.is_none() {
            self.at = Some((path.to_string(), loc));
        }
        self
    }
}

/// Reads `T` from the tree, collecting the keys `T` does not know into `unknown`.
pub fn read<T: de::DeserializeOwned>(
    tree: &Tree,
    base: &str,
    unknown: &RefCell<Vec<UnknownField>>,
) -> Result<T, DeError> {
    T::deserialize(De {
        tree,
        path: base.to_string(),
        unknown,
    })
}

struct De<'a> {
    tree: &'a Tree,
    path: String,
    unknown: &'a RefCell<Vec<UnknownField>>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl<'de> de::Deserializer<'de> for De<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        let (path, loc) = (self.path.clone(), self.tree.loc);
        let r = match &self.tree.node {
            Node::Null => v.visit_unit(),
            Node::Bool(b) => v.visit_bool(*b),
            Node::Int(i) => v.visit_i64(*i),
            Node::UInt(i) => v.visit_u64(*i),
            Node::Float(f) => v.visit_f64(*f),
            Node::Str(s) => v.visit_str(s),
            Node::Seq(items) => v.visit_seq(Seq {
                items,
                next: 0,
                path: &self.path,
                unknown: self.unknown,
            }),
            Node::Map(entries) => v.visit_map(Map {
                entries,
                next: 0,
                fields: None,
                path: &self.path,
                unknown: self.unknown,
            }),
        };
        r.map_err(|e| e.here(&path, loc))
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        if self.tree.node == Node::Null {
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        let (path, loc) = (self.path.clone(), self.tree.loc);
        v.visit_newtype_struct(self).map_err(|e| e.here(&path, loc))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        let (path, loc) = (self.path.clone(), self.tree.loc);
        match &self.tree.node {
            Node::Map(entries) => v
                .visit_map(Map {
                    entries,
                    next: 0,
                    fields: Some(fields),
                    path: &self.path,
                    unknown: self.unknown,
                })
                .map_err(|e| e.here(&path, loc)),
            _ => self.deserialize_any(v),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        let (path, loc) = (self.path.clone(), self.tree.loc);
        match &self.tree.node {
            Node::Str(s) => v
                .visit_enum(s.as_str().into_deserializer())
                .map_err(|e: DeError| e.here(&path, loc)),
            _ => self.deserialize_any(v),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier
    }
}

struct Seq<'a> {
    items: &'a [Tree],
    next: usize,
    path: &'a str,
    unknown: &'a RefCell<Vec<UnknownField>>,
}

impl<'de> SeqAccess<'de> for Seq<'_> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some(t) = self.items.get(self.next) else {
            return Ok(None);
        };
        let path = format!("{}[{}]", self.path, self.next);
        self.next += 1;
        seed.deserialize(De {
            tree: t,
            path,
            unknown: self.unknown,
        })
        .map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len() - self.next)
    }
}

struct Map<'a> {
    entries: &'a [(String, Loc, Tree)],
    next: usize,
    fields: Option<&'static [&'static str]>,
    path: &'a str,
    unknown: &'a RefCell<Vec<UnknownField>>,
}

impl<'de> MapAccess<'de> for Map<'_> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((k, loc, _)) = self.entries.get(self.next) else {
            return Ok(None);
        };
        if let Some(fields) = self.fields {
            if !fields.contains(&k.as_str()) {
                self.unknown.borrow_mut().push(UnknownField {
                    path: join(self.path, k),
                    loc: *loc,
                    closest: closest(k, fields),
                });
            }
        }
        let path = join(self.path, k);
        seed.deserialize(k.as_str().into_deserializer())
            .map(Some)
            .map_err(|e: DeError| e.here(&path, *loc))
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let Some((k, _, t)) = self.entries.get(self.next) else {
            return Err(de::Error::custom("a value without a key"));
        };
        self.next += 1;
        seed.deserialize(De {
            tree: t,
            path: join(self.path, k),
            unknown: self.unknown,
        })
    }
}

/// The known name closest to `key` (edit distance at most a third of its length, at least
/// 2), ignoring case.
pub fn closest(key: &str, known: &[&str]) -> Option<String> {
    let k = key.to_ascii_lowercase();
    let limit = (k.chars().count() / 3).max(2);
    known
        .iter()
        .map(|f| (strsim::levenshtein(&k, &f.to_ascii_lowercase()), *f))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, f)| (*d, *f))
        .map(|(_, f)| f.to_string())
}

/// Reads every document of a YAML stream as a tree; a syntax error names its line and column.
pub fn documents(text: &str) -> Result<Vec<Tree>, (String, Loc)> {
    serde_saphyr::from_multiple::<Tree>(text).map_err(|e| {
        let loc = e.location().map(|l| Loc::of(&l)).unwrap_or_default();
        (syntax_words(&e.to_string()), loc)
    })
}

/// serde-saphyr's message without its own location suffix.
fn syntax_words(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or(msg).trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // `line 4 column 5: …`: the location is given in front already.
    let first = match first.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
        Some((_, rest)) => rest,
        None => first,
    };
    library_words(first)
}

/// The YAML library's own terms (its options and budgets) in the user's: what is wrong with
/// the text, and the limit podcheck reads within.
fn library_words(msg: &str) -> String {
    if let Some(key) = msg
        .strip_prefix("duplicate mapping key: ")
        .and_then(|r| r.split(", set DuplicateKeyPolicy").next())
    {
        return format!("the key `{key}` is given twice in one mapping");
    }
    if let Some(rest) = msg.strip_prefix("budget breached: ") {
        let number = rest
            .split(|c: char| !c.is_ascii_digit())
            .find(|n| !n.is_empty())
            .unwrap_or("");
        let what = if rest.starts_with("Depth") {
            "nested more deeply than".to_string()
        } else if rest.starts_with("Documents") {
            "more documents (`---`) than".to_string()
        } else if rest.starts_with("Nodes") || rest.starts_with("Alias") {
            "more values, aliases expanded, than".to_string()
        } else {
            format!("larger ({rest}) than")
        };
        let limit = number.parse::<u64>().map(|n| n.saturating_sub(1));
        return match limit {
            Ok(l) => format!("{what} podcheck reads ({l} at most)"),
            Err(_) => format!("{what} podcheck reads"),
        };
    }
    msg.to_string()
}
