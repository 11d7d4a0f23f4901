//! The yosys JSON netlist format (`write_json`), as far as the simulator needs it.
//!
//! Only the structure is checked here (well-formed JSON, one top module, bits that are net
//! numbers or the constants `"0" "1" "x" "z"`, parameters that are bit strings or integers).
//! What the cells mean is the compiler's business (the private `compile` module).

use std::collections::{BTreeMap, HashSet};

use serde::Deserialize;

use crate::error::{LoadError, clip, clip_name};
use crate::limits::MAX_BITS;

/// One bit of a port or cell connection: a net of the module or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bit {
    /// A net, numbered by yosys (numbers 0 and 1 are never used for nets).
    Net(u32),
    /// A constant; `x` and `z` are read as 0 (the simulator is two-valued).
    Const(bool),
}

/// Which way a port points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
    Inout,
}

/// A top-level port.
#[derive(Clone, Debug)]
pub struct Port {
    pub name: String,
    pub direction: Direction,
    /// Least significant bit first.
    pub bits: Vec<Bit>,
    /// Index of the least significant bit in the Verilog declaration (`[7:0]` → 0).
    pub offset: i64,
    /// `true` for `[0:7]`-style declarations.
    pub upto: bool,
}

/// A named wire (`netnames`), with its `init` attribute when it has one.
#[derive(Clone, Debug)]
pub struct NetName {
    pub name: String,
    pub bits: Vec<Bit>,
    pub hide_name: bool,
    /// Initial value bits (least significant first); `None` for `x`/`z` bits and wires without `init`.
    pub init: Option<Vec<Option<bool>>>,
}

/// A parameter value: bits (least significant first, `x`/`z` as `None`) or a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    Bits(Vec<Option<bool>>),
    Str(String),
}

impl Param {
    /// The value as an unsigned integer, if it is made of defined bits and fits in 64 bits.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Param::Bits(bits) => {
                let mut v = 0u64;
                for (i, b) in bits.iter().enumerate() {
                    match b {
                        Some(true) if i >= 64 => return None,
                        Some(true) => v |= 1 << i,
                        Some(false) | None => {}
                    }
                }
                Some(v)
            }
            Param::Str(_) => None,
        }
    }

    /// Bit `i` (`x`/`z` and bits beyond the value read as 0), without building the whole
    /// vector: a memory's `INIT` may be asked for far more bits than the file gives.
    pub fn bit(&self, i: u64) -> bool {
        match self {
            Param::Bits(bits) => usize::try_from(i)
                .ok()
                .and_then(|i| bits.get(i).copied().flatten())
                .unwrap_or(false),
            Param::Str(_) => false,
        }
    }

    /// The positions of the bits that are 1, lowest first.
    pub fn ones(&self) -> impl Iterator<Item = u64> + '_ {
        let bits: &[Option<bool>] = match self {
            Param::Bits(bits) => bits,
            Param::Str(_) => &[],
        };
        bits.iter()
            .enumerate()
            .filter(|(_, b)| **b == Some(true))
            .map(|(i, _)| i as u64)
    }

    /// The value as a message shows it: the number when it fits in 64 bits, else its bits (cut).
    pub fn shown(&self) -> String {
        match (self.as_u64(), self) {
            (Some(v), _) => v.to_string(),
            (None, Param::Bits(bits)) => {
                let text: String = bits
                    .iter()
                    .rev()
                    .map(|b| match b {
                        Some(true) => '1',
                        Some(false) => '0',
                        None => 'x',
                    })
                    .collect();
                format!("the {}-bit value {}", bits.len(), crate::error::clip(&text))
            }
            (None, Param::Str(s)) => format!("the string \"{}\"", crate::error::clip(s)),
        }
    }

    /// The bits, `x`/`z` read as 0, padded or cut to `width`.
    pub fn bits(&self, width: usize) -> Vec<bool> {
        match self {
            Param::Bits(bits) => (0..width)
                .map(|i| bits.get(i).copied().flatten().unwrap_or(false))
                .collect(),
            Param::Str(_) => vec![false; width],
        }
    }
}

/// A cell instance.
#[derive(Clone, Debug)]
pub struct Cell {
    pub name: String,
    pub kind: String,
    pub parameters: BTreeMap<String, Param>,
    pub connections: BTreeMap<String, Vec<Bit>>,
}

/// The flattened top module of a netlist.
#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub ports: Vec<Port>,
    pub cells: Vec<Cell>,
    pub netnames: Vec<NetName>,
}

impl Module {
    /// Parses yosys `write_json` output and returns its top module: the module with the `top`
    /// attribute, or the only module.
    pub fn from_json(text: &str) -> Result<Module, LoadError> {
        let raw: RawNetlist = serde_json::from_str(text).map_err(|e| LoadError::Json {
            line: e.line(),
            column: e.column(),
            message: json_message(&e),
        })?;
        let mut tops: Vec<&String> = raw
            .modules
            .iter()
            .filter(|(_, m)| {
                m.attributes
                    .get("top")
                    .and_then(|v| parse_param(v).ok())
                    .and_then(|p| p.as_u64())
                    .is_some_and(|v| v != 0)
            })
            .map(|(name, _)| name)
            .collect();
        if tops.is_empty() && raw.modules.len() == 1 {
            tops = raw.modules.keys().collect();
        }
        let name = match tops.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Err(LoadError::NoTop {
                    modules: raw.modules.len(),
                });
            }
            _ => {
                return Err(LoadError::ManyTops(
                    tops.iter().map(|s| clip_name(s)).collect(),
                ));
            }
        };
        let raw_mod = &raw.modules[&name];
        let mut ports = Vec::with_capacity(raw_mod.ports.len());
        let mut port_names: HashSet<&str> = HashSet::with_capacity(raw_mod.ports.len());
        for (pname, p) in &raw_mod.ports {
            if !port_names.insert(pname) {
                return Err(LoadError::Malformed {
                    place: format!("port {}", clip_name(pname)),
                    message: "declared twice".into(),
                });
            }
            let direction = match p.direction.as_str() {
                "input" => Direction::Input,
                "output" => Direction::Output,
                "inout" => Direction::Inout,
                other => {
                    return Err(LoadError::Malformed {
                        place: format!("port {}", clip_name(pname)),
                        message: format!("unknown direction \"{}\"", clip(other)),
                    });
                }
            };
            // A Verilog index: 32 bits. Bounding it keeps `offset + width` exact everywhere.
            if i32::try_from(p.offset).is_err() {
                return Err(LoadError::Malformed {
                    place: format!("port {}", clip_name(pname)),
                    message: format!("offset {} does not fit in 32 bits", p.offset),
                });
            }
            ports.push(Port {
                name: pname.clone(),
                direction,
                bits: parse_bits(&p.bits, || format!("port {}", clip_name(pname)))?,
                offset: p.offset,
                upto: p.upto != 0,
            });
        }
        let mut cells = Vec::with_capacity(raw_mod.cells.len());
        for (cname, c) in &raw_mod.cells {
            let mut parameters = BTreeMap::new();
            for (k, v) in &c.parameters {
                let p = parse_param(v).map_err(|message| LoadError::Malformed {
                    place: format!("cell {}, parameter {}", clip_name(cname), clip_name(k)),
                    message,
                })?;
                parameters.insert(k.clone(), p);
            }
            let mut connections = BTreeMap::new();
            for (k, v) in &c.connections {
                connections.insert(
                    k.clone(),
                    parse_bits(v, || {
                        format!("cell {}, port {}", clip_name(cname), clip_name(k))
                    })?,
                );
            }
            cells.push(Cell {
                name: cname.clone(),
                kind: c.kind.clone(),
                parameters,
                connections,
            });
        }
        let mut netnames = Vec::with_capacity(raw_mod.netnames.len());
        for (nname, n) in &raw_mod.netnames {
            let init = match n.attributes.get("init") {
                Some(v) => match parse_param(v) {
                    Ok(Param::Bits(bits)) => Some(bits),
                    _ => None,
                },
                None => None,
            };
            netnames.push(NetName {
                name: nname.clone(),
                bits: parse_bits(&n.bits, || format!("netname {}", clip_name(nname)))?,
                hide_name: n.hide_name != 0,
                init,
            });
        }
        Ok(Module {
            name,
            ports,
            cells,
            netnames,
        })
    }
}

#[derive(Deserialize)]
struct RawNetlist {
    #[serde(default)]
    modules: BTreeMap<String, RawModule>,
}

#[derive(Deserialize)]
struct RawModule {
    #[serde(default)]
    attributes: BTreeMap<String, serde_json::Value>,
    /// In declaration order (yosys writes ports as declared).
    #[serde(default, deserialize_with = "in_order")]
    ports: Vec<(String, RawPort)>,
    #[serde(default)]
    cells: BTreeMap<String, RawCell>,
    #[serde(default)]
    netnames: BTreeMap<String, RawNetName>,
}

#[derive(Deserialize)]
struct RawPort {
    direction: String,
    bits: Vec<serde_json::Value>,
    #[serde(default)]
    offset: i64,
    #[serde(default)]
    upto: i64,
}

#[derive(Deserialize)]
struct RawCell {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    parameters: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    connections: BTreeMap<String, Vec<serde_json::Value>>,
}

#[derive(Deserialize)]
struct RawNetName {
    bits: Vec<serde_json::Value>,
    #[serde(default)]
    hide_name: i64,
    #[serde(default)]
    attributes: BTreeMap<String, serde_json::Value>,
}

/// Reads a JSON object into (key, value) pairs in document order.
fn in_order<'de, D, T>(de: D) -> Result<Vec<(String, T)>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Pairs<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Pairs<T> {
        type Value = Vec<(String, T)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some((k, v)) = map.next_entry::<String, T>()? {
                out.push((k, v));
            }
            Ok(out)
        }
    }
    de.deserialize_map(Pairs(std::marker::PhantomData))
}

/// The message of a JSON syntax or shape error, without the position (given apart) and with any
/// quoted piece of the input cut to [`crate::error::QUOTE_CHARS`] characters.
fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    // serde quotes an offending string as `string "..."` (escaped, so its own quotes are `\"`).
    match (message.find('"'), message.rfind('"')) {
        (Some(open), Some(close)) if close > open => format!(
            "{}\"{}\"{}",
            &message[..open],
            clip(&message[open + 1..close]),
            &message[close + 1..]
        ),
        _ => clip(message),
    }
}

/// A JSON value for a message: its text, cut.
fn shown(v: &serde_json::Value) -> String {
    clip(&v.to_string())
}

fn parse_bits(
    raw: &[serde_json::Value],
    place: impl Fn() -> String,
) -> Result<Vec<Bit>, LoadError> {
    if raw.len() as u64 > MAX_BITS {
        return Err(LoadError::Malformed {
            place: place(),
            message: format!(
                "{} bits, more than the {MAX_BITS} a port or wire may have",
                raw.len()
            ),
        });
    }
    raw.iter()
        .enumerate()
        .map(|(i, v)| match v {
            serde_json::Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Bit::Net)
                .ok_or_else(|| LoadError::Malformed {
                    place: format!("{}, bit {i}", place()),
                    message: format!("net number {n} out of range"),
                }),
            serde_json::Value::String(s) => match s.as_str() {
                "0" | "x" | "z" => Ok(Bit::Const(false)),
                "1" => Ok(Bit::Const(true)),
                other => Err(LoadError::Malformed {
                    place: format!("{}, bit {i}", place()),
                    message: format!("bad constant bit \"{}\"", clip(other)),
                }),
            },
            other => Err(LoadError::Malformed {
                place: format!("{}, bit {i}", place()),
                message: format!(
                    "expected a net number or a constant, found {}",
                    shown(other)
                ),
            }),
        })
        .collect()
}

/// Reads a parameter or attribute: a string of `01xz` is a bit string (most significant bit
/// first, as yosys writes it); a string with other characters is a string (yosys appends a space
/// to strings that would look like bits); a JSON integer is a 32-bit value (`-compat-int`
/// writes only those), and one that does not fit in 32 bits is refused rather than cut.
fn parse_param(v: &serde_json::Value) -> Result<Param, String> {
    match v {
        serde_json::Value::String(s) => {
            if !s.is_empty() && s.bytes().all(|b| matches!(b, b'0' | b'1' | b'x' | b'z')) {
                Ok(Param::Bits(
                    s.bytes()
                        .rev()
                        .map(|b| match b {
                            b'0' => Some(false),
                            b'1' => Some(true),
                            _ => None,
                        })
                        .collect(),
                ))
            } else {
                Ok(Param::Str(s.clone()))
            }
        }
        serde_json::Value::Number(n) => {
            let v = n
                .as_i64()
                .filter(|v| (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(v))
                .ok_or_else(|| match n.as_f64() {
                    Some(_) if n.is_i64() || n.is_u64() => {
                        format!("{n} does not fit in 32 bits (write wider values as bit strings)")
                    }
                    _ => format!("{} is not an integer", clip(&n.to_string())),
                })?;
            Ok(Param::Bits(
                (0..32).map(|i| Some((v >> i) & 1 == 1)).collect(),
            ))
        }
        other => Err(format!(
            "expected a bit string or an integer, found {}",
            shown(other)
        )),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_params_msb_first() {
        let p = parse_param(&serde_json::json!("0110")).unwrap();
        assert_eq!(p.as_u64(), Some(6));
        assert_eq!(p.bits(5), vec![false, true, true, false, false]);
        assert_eq!(
            parse_param(&serde_json::json!(7)).unwrap().as_u64(),
            Some(7)
        );
        assert_eq!(
            parse_param(&serde_json::json!("abc")).unwrap(),
            Param::Str("abc".into())
        );
    }

    #[test]
    fn rejects_a_bad_bit_naming_the_place() {
        let json = r#"{"modules":{"m":{"ports":{"a":{"direction":"input","bits":["q"]}}}}}"#;
        let err = Module::from_json(json).unwrap_err().to_string();
        assert!(err.contains("port a, bit 0"), "{err}");
    }

    #[test]
    fn a_port_offset_beyond_32_bits_is_refused() {
        let json = r#"{"modules":{"m":{"ports":{"a":{"direction":"input","bits":[2,3],
            "offset":9223372036854775807,"upto":1}}}}}"#;
        assert_eq!(
            Module::from_json(json).unwrap_err().to_string(),
            "port a: offset 9223372036854775807 does not fit in 32 bits"
        );
    }

    #[test]
    fn integer_parameters_beyond_32_bits_are_refused_not_cut() {
        for (v, fits) in [
            (serde_json::json!(4294967295u64), true),
            (serde_json::json!(-2147483648i64), true),
            (serde_json::json!(4294967296u64), false),
            (serde_json::json!(-2147483649i64), false),
            (serde_json::json!(18446744073709551615u64), false),
        ] {
            assert_eq!(parse_param(&v).is_ok(), fits, "{v}");
        }
        assert_eq!(
            parse_param(&serde_json::json!(1099511627776u64)).unwrap_err(),
            "1099511627776 does not fit in 32 bits (write wider values as bit strings)"
        );
    }

    #[test]
    fn json_errors_carry_line_and_column() {
        let err = Module::from_json("{\n  \"modules\": [").unwrap_err();
        assert!(matches!(err, LoadError::Json { line: 2, .. }), "{err:?}");
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(s in ".{0,200}") {
            let _ = Module::from_json(&s);
        }

        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Module::from_json(&String::from_utf8_lossy(&b));
        }
    }
}
