//! Just enough JSON to write the results file.

use std::fmt::{self, Write as _};

pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn obj(fields: Vec<(&str, Json)>) -> Json {
        Json::Obj(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    pub fn opt(x: Option<f64>) -> Json {
        x.map_or(Json::Null, Json::Num)
    }

    fn write(&self, out: &mut String, indent: usize) -> fmt::Result {
        let pad = "  ".repeat(indent + 1);
        match self {
            Json::Null => out.write_str("null"),
            Json::Bool(b) => write!(out, "{b}"),
            Json::Num(x) if x.is_finite() => {
                if x.fract() == 0.0 && x.abs() < 1e15 {
                    write!(out, "{}", *x as i64)
                } else {
                    write!(out, "{:.6}", x)
                }
            }
            Json::Num(_) => out.write_str("null"),
            Json::Str(s) => {
                out.push('"');
                for ch in s.chars() {
                    match ch {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '\n' => out.push_str("\\n"),
                        c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
                        c => out.push(c),
                    }
                }
                out.push('"');
                Ok(())
            }
            Json::Arr(items) if items.is_empty() => out.write_str("[]"),
            Json::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad);
                    item.write(out, indent + 1)?;
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                write!(out, "{}]", "  ".repeat(indent))
            }
            Json::Obj(fields) => {
                out.push_str("{\n");
                for (i, (k, v)) in fields.iter().enumerate() {
                    write!(out, "{pad}\"{k}\": ")?;
                    v.write(out, indent + 1)?;
                    out.push_str(if i + 1 < fields.len() { ",\n" } else { "\n" });
                }
                write!(out, "{}}}", "  ".repeat(indent))
            }
        }
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write(&mut s, 0)?;
        f.write_str(&s)
    }
}
