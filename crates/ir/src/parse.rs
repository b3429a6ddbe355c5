//! The text format's parser: the inverse of `print`. Value and block numbers
//! are kept as written (gaps become unused numbers), so parse → print gives
//! back the text that was parsed.

use std::collections::HashMap;

use thiserror::Error;

use crate::entities::{Block, FuncId, GlobalId, StackSlot, Value};
use crate::function::{Function, Phase, Signature, SourceLoc, StackSlotData, ValueData, ValueDef};
use crate::instructions::{
    AtomicRmwOp, BinaryOp, BlockCall, ConvertOp, DeviceOp, FenceFlags, FloatCC, GangOp, InstData,
    IntCC, MemOrder, MemScope, Rounding, TernaryOp, UnaryOp, WorkItemQuery,
};
use crate::module::{AccessQual, ArgInfo, ByVal, GlobalData, KernelInfo, Module, Reloc, TypeQuals};
use crate::types::{AddrSpace, Type};
use cranelift_entity::EntityRef;

/// A syntax error, with the line (1-based) it was found on.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

pub type ParseResult<T> = Result<T, ParseError>;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A word: keywords, mnemonics with `.suffixes`, types, `v3`, `block2`, `ss0`.
    Word(String),
    /// `@name`.
    Global(String),
    /// A numeric literal as written (sign included).
    Num(String),
    /// A string literal, unescaped.
    Str(Vec<u8>),
    /// One punctuation character; `->` is `'>'` preceded by `'-'`, lexed as `'→'`.
    Punct(char),
}

struct Token {
    tok: Tok,
    line: u32,
}

fn lex(src: &str) -> ParseResult<Vec<Token>> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let err = |line, message: String| Err(ParseError { line, message });
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'>') => {
                out.push(Token {
                    tok: Tok::Punct('→'),
                    line,
                });
                i += 2;
            }
            b'-' | b'0'..=b'9' => {
                i += 1;
                while i < bytes.len() {
                    let d = bytes[i];
                    let exp_sign = (d == b'-' || d == b'+')
                        && matches!(bytes[i - 1], b'e' | b'E')
                        && !src[start..i].starts_with("0x")
                        && !src[start..i].starts_with("-0x");
                    if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || exp_sign {
                        i += 1;
                    } else {
                        break;
                    }
                }
                out.push(Token {
                    tok: Tok::Num(src[start..i].to_string()),
                    line,
                });
            }
            b'@' => {
                i += 1;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || b"_.$".contains(&bytes[i]))
                {
                    i += 1;
                }
                if i == start + 1 {
                    return err(line, "expected a name after '@'".into());
                }
                out.push(Token {
                    tok: Tok::Global(src[start + 1..i].to_string()),
                    line,
                });
            }
            b'"' => {
                i += 1;
                let mut s = Vec::new();
                loop {
                    match bytes.get(i) {
                        None | Some(b'\n') => return err(line, "unterminated string".into()),
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') => {
                            let esc = bytes.get(i + 1).copied();
                            i += 2;
                            match esc {
                                Some(b'n') => s.push(b'\n'),
                                Some(b't') => s.push(b'\t'),
                                Some(b'\\') => s.push(b'\\'),
                                Some(b'"') => s.push(b'"'),
                                Some(b'x') => {
                                    let hex = src
                                        .get(i..i + 2)
                                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                                    match hex {
                                        Some(b) => s.push(b),
                                        None => {
                                            return err(line, "bad \\x escape in string".into())
                                        }
                                    }
                                    i += 2;
                                }
                                _ => return err(line, "unknown escape in string".into()),
                            }
                        }
                        Some(&b) => {
                            s.push(b);
                            i += 1;
                        }
                    }
                }
                out.push(Token {
                    tok: Tok::Str(s),
                    line,
                });
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Word(src[start..i].to_string()),
                    line,
                });
            }
            b'(' | b')' | b'{' | b'}' | b'[' | b']' | b',' | b':' | b'=' | b'!' | b'|' | b'+'
            | b'<' | b'>' => {
                out.push(Token {
                    tok: Tok::Punct(c as char),
                    line,
                });
                i += 1;
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return err(line, format!("unexpected character '{ch}'"));
            }
        }
    }
    Ok(out)
}

/// Parses a whole module.
pub fn parse_module(src: &str) -> ParseResult<Module> {
    let tokens = lex(src)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        module: Module::new(),
        func_ids: HashMap::new(),
        global_ids: HashMap::new(),
    };
    p.declare_names();
    p.module_body()?;
    Ok(p.module)
}

/// Parses a module that holds exactly one function, and returns it.
pub fn parse_function(src: &str) -> ParseResult<Function> {
    let module = parse_module(src)?;
    let mut funcs = module.functions.into_iter().map(|(_, f)| f);
    match (funcs.next(), funcs.next()) {
        (Some(f), None) => Ok(f),
        _ => Err(ParseError {
            line: 1,
            message: "expected exactly one function".into(),
        }),
    }
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    module: Module,
    func_ids: HashMap<String, FuncId>,
    global_ids: HashMap<String, GlobalId>,
}

/// Per-function parsing state.
struct FuncState {
    func: Function,
    /// Blocks named so far, and whether they were defined (laid out).
    defined_blocks: Vec<bool>,
    /// The line each block was first branched to on, for the error if it
    /// is never defined.
    first_branch_line: Vec<Option<u32>>,
}

impl FuncState {
    fn block(&mut self, n: usize) -> Block {
        while self.func.blocks.len() <= n {
            self.func.blocks.push(Default::default());
            self.defined_blocks.push(false);
            self.first_branch_line.push(None);
        }
        Block::new(n)
    }

    fn value(&mut self, n: usize) -> Value {
        while self.func.values.len() <= n {
            self.func.values.push(ValueData {
                ty: Type::I32,
                def: ValueDef::Unused,
            });
        }
        Value::new(n)
    }
}

impl Parser {
    /// Assigns function and variable ids in textual order (the order the
    /// printer uses), so calls can name functions defined later and
    /// relocations can name variables defined later.
    fn declare_names(&mut self) {
        let mut depth = 0;
        for (i, t) in self.tokens.iter().enumerate() {
            match &t.tok {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                Tok::Word(w) if depth == 0 => {
                    let Some(Token {
                        tok: Tok::Global(name),
                        ..
                    }) = self.tokens.get(i + 1)
                    else {
                        continue;
                    };
                    if w == "kernel" || w == "function" {
                        let next = FuncId::new(self.func_ids.len());
                        self.func_ids.entry(name.clone()).or_insert(next);
                    } else if w == "global" {
                        let next = GlobalId::new(self.global_ids.len());
                        self.global_ids.entry(name.clone()).or_insert(next);
                    }
                }
                _ => {}
            }
        }
    }

    fn line(&self) -> u32 {
        self.tokens
            .get(self.pos)
            .or_else(|| self.tokens.last())
            .map_or(1, |t| t.line)
    }

    /// An error about the token just consumed, on that token's line (the
    /// next token, which [`Parser::err`] reports, may be on a later line).
    fn err_prev<T>(&self, message: impl Into<String>) -> ParseResult<T> {
        Err(ParseError {
            line: self
                .tokens
                .get(self.pos.wrapping_sub(1))
                .map_or(1, |t| t.line),
            message: message.into(),
        })
    }

    fn err<T>(&self, message: impl Into<String>) -> ParseResult<T> {
        Err(ParseError {
            line: self.line(),
            message: message.into(),
        })
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn describe(tok: Option<&Tok>) -> String {
        match tok {
            None => "end of input".into(),
            Some(Tok::Word(w)) => format!("'{w}'"),
            Some(Tok::Global(g)) => format!("'@{g}'"),
            Some(Tok::Num(n)) => format!("'{n}'"),
            Some(Tok::Str(_)) => "a string".into(),
            Some(Tok::Punct('→')) => "'->'".into(),
            Some(Tok::Punct(c)) => format!("'{c}'"),
        }
    }

    fn expected<T>(&self, what: &str) -> ParseResult<T> {
        self.err(format!(
            "expected {what}, found {}",
            Self::describe(self.peek())
        ))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn punct(&mut self, c: char) -> ParseResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.expected(&format!(
                "'{}'",
                if c == '→' {
                    "->".to_string()
                } else {
                    c.to_string()
                }
            ))
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Word(x)) if x == w) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn keyword(&mut self, w: &str) -> ParseResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            self.expected(&format!("'{w}'"))
        }
    }

    fn word(&mut self, what: &str) -> ParseResult<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => self.expected(what),
        }
    }

    fn global_name(&mut self) -> ParseResult<String> {
        match self.peek() {
            Some(Tok::Global(g)) => {
                let g = g.clone();
                self.pos += 1;
                Ok(g)
            }
            _ => self.expected("a '@name'"),
        }
    }

    fn string(&mut self) -> ParseResult<String> {
        match self.peek() {
            Some(Tok::Str(s)) => {
                let s = s.clone();
                self.pos += 1;
                String::from_utf8(s).or_else(|_| self.err_prev("string is not valid UTF-8"))
            }
            _ => self.expected("a string"),
        }
    }

    fn number_text(&mut self) -> ParseResult<String> {
        match self.peek() {
            Some(Tok::Num(n)) => {
                let n = n.clone();
                self.pos += 1;
                Ok(n)
            }
            _ => self.expected("a number"),
        }
    }

    /// An integer literal (decimal, `0x` hex, optionally negative) as its
    /// two's-complement bits.
    fn int_bits(&mut self) -> ParseResult<u64> {
        let text = self.number_text()?;
        let (neg, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.as_str()),
        };
        let magnitude = match digits.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => digits.parse::<u64>(),
        };
        match magnitude {
            Ok(m) if neg => Ok((m as i64).wrapping_neg() as u64),
            Ok(m) => Ok(m),
            Err(_) => self.err_prev(format!("'{text}' is not an integer")),
        }
    }

    fn uint<T: TryFrom<u64>>(&mut self, what: &str) -> ParseResult<T> {
        let bits = self.int_bits()?;
        T::try_from(bits).or_else(|_| self.err_prev(format!("{what} out of range")))
    }

    fn ty(&mut self) -> ParseResult<Type> {
        let w = self.word("a type")?;
        match Type::from_name(&w) {
            Some(t) => Ok(t),
            None => {
                self.pos -= 1;
                self.err(format!("unknown type '{w}'"))
            }
        }
    }

    /// A value's type: `T`, or `<T>` for one element per lane (then true).
    fn lane_ty(&mut self) -> ParseResult<(Type, bool)> {
        if self.eat_punct('<') {
            let ty = self.ty()?;
            self.punct('>')?;
            Ok((ty, true))
        } else {
            Ok((self.ty()?, false))
        }
    }

    fn named<T>(&mut self, what: &str, from_name: impl Fn(&str) -> Option<T>) -> ParseResult<T> {
        let w = self.word(what)?;
        match from_name(&w) {
            Some(x) => Ok(x),
            None => {
                self.pos -= 1;
                self.err(format!("unknown {what} '{w}'"))
            }
        }
    }

    /// An entity reference such as `v3`, `block2`, `ss0`: its number.
    fn entity(&mut self, prefix: &str, what: &str) -> ParseResult<usize> {
        if let Some(Tok::Word(w)) = self.peek() {
            if let Some(n) = w.strip_prefix(prefix).and_then(|d| d.parse::<usize>().ok()) {
                // Entities are numbered densely (the printer numbers them
                // in order); a number far beyond what the text could
                // define would make the parser allocate every entity up to
                // it (`block9223372036854775807`).
                let limit = self.max_entity();
                if n > limit {
                    return self.err(format!(
                        "{prefix}{n}: entity numbers go up to {limit} in a text of this length"
                    ));
                }
                self.pos += 1;
                return Ok(n);
            }
        }
        self.expected(what)
    }

    /// The largest entity number a text of this many tokens may use: more
    /// than it can define, with room for sparse hand-written numbering.
    fn max_entity(&self) -> usize {
        self.tokens.len().saturating_mul(4).saturating_add(4096)
    }

    fn module_body(&mut self) -> ParseResult<()> {
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Word(w) if w == "global" => self.global()?,
                Tok::Word(w) if w == "kernel" || w == "function" => {
                    let f = self.function()?;
                    self.module.functions.push(f);
                }
                _ => return self.expected("'global', 'kernel' or 'function'"),
            }
        }
        Ok(())
    }

    fn global_ref(&mut self) -> ParseResult<GlobalId> {
        let name = self.global_name()?;
        match self.global_ids.get(&name) {
            Some(&id) => Ok(id),
            None => match name
                .strip_prefix("gv")
                .and_then(|n| n.parse::<usize>().ok())
            {
                Some(n) if n < self.global_ids.len() => Ok(GlobalId::new(n)),
                _ => {
                    self.pos -= 1;
                    self.err(format!("unknown variable '@{name}'"))
                }
            },
        }
    }

    fn global(&mut self) -> ParseResult<()> {
        self.keyword("global")?;
        let name = self.global_name()?;
        if self.module.global_by_name(&name).is_some() {
            self.pos -= 1;
            return self.err(format!("variable '@{name}' is defined twice"));
        }
        self.punct(':')?;
        let space = self.named("address space", AddrSpace::from_name)?;
        self.punct(',')?;
        self.keyword("size")?;
        let size = self.uint("size")?;
        self.punct(',')?;
        self.keyword("align")?;
        let align = self.uint("alignment")?;
        let mut global = GlobalData {
            name,
            space,
            size,
            align,
            init: None,
            relocs: Vec::new(),
        };
        while self.eat_punct(',') {
            if self.eat_word("init") {
                self.keyword("x")?;
                let hex = self.string()?;
                let bytes: Option<Vec<u8>> = (0..hex.len())
                    .step_by(2)
                    .map(|i| {
                        hex.get(i..i + 2)
                            .and_then(|h| u8::from_str_radix(h, 16).ok())
                    })
                    .collect();
                match bytes {
                    Some(b) => global.init = Some(b),
                    None => return self.err_prev("initializer must be hex digits in pairs"),
                }
            } else if self.eat_word("reloc") {
                let offset = self.uint("offset")?;
                self.punct('=')?;
                let target = self.global_ref()?;
                self.punct('+')?;
                let addend = self.int_bits()? as i64;
                global.relocs.push(Reloc {
                    offset,
                    target,
                    addend,
                });
            } else {
                return self.expected("'init' or 'reloc'");
            }
        }
        self.module.globals.push(global);
        Ok(())
    }

    fn function(&mut self) -> ParseResult<Function> {
        let is_kernel = self.word("'kernel' or 'function'")? == "kernel";
        let name = self.global_name()?;
        if self.module.function_by_name(&name).is_some() {
            self.pos -= 1;
            return self.err(format!("function '@{name}' is defined twice"));
        }
        self.punct('(')?;
        let mut signature = Signature::default();
        if !self.eat_punct(')') {
            loop {
                signature.params.push(self.ty()?);
                if self.eat_punct(')') {
                    break;
                }
                self.punct(',')?;
            }
        }
        if self.eat_punct('→') {
            signature.ret = Some(self.ty()?);
        }
        self.punct('{')?;
        let mut st = FuncState {
            func: Function::new(name, signature),
            defined_blocks: Vec::new(),
            first_branch_line: Vec::new(),
        };
        if is_kernel {
            st.func.kernel = Some(KernelInfo::default());
        }
        self.function_header(&mut st)?;
        while !self.eat_punct('}') {
            self.block(&mut st)?;
        }
        for data in st.func.insts.values_mut() {
            if let InstData::Switch { arg, cases, .. } = data {
                let mask = st
                    .func
                    .values
                    .get(*arg)
                    .map_or(u64::MAX, |d| d.ty.int_mask());
                cases.iter_mut().for_each(|(value, _)| *value &= mask);
            }
        }
        let undefined = st
            .first_branch_line
            .iter()
            .enumerate()
            .filter_map(|(n, line)| line.filter(|_| !st.defined_blocks[n]).map(|line| (n, line)))
            .min_by_key(|&(_, line)| line);
        if let Some((n, line)) = undefined {
            return Err(ParseError {
                line,
                message: format!("block{n} is branched to but never defined"),
            });
        }
        Ok(st.func)
    }

    fn function_header(&mut self, st: &mut FuncState) -> ParseResult<()> {
        loop {
            match self.peek() {
                Some(Tok::Word(w)) if w == "phase" => {
                    self.pos += 1;
                    st.func.phase = self.named("phase", Phase::from_name)?;
                }
                Some(Tok::Word(w)) if w == "refill" => {
                    self.pos += 1;
                    st.func.refill = true;
                }
                Some(Tok::Word(w)) if w == "gang" => {
                    self.pos += 1;
                    st.func.gang = Some(self.uint("gang width")?);
                }
                Some(Tok::Word(w)) if w == "arg" => {
                    self.pos += 1;
                    let index: usize = self.uint("argument index")?;
                    let Some(info) = st.func.kernel.as_mut() else {
                        return self.err("'arg' is only allowed in kernels");
                    };
                    if index != info.args.len() {
                        return self.err(format!("expected arg {}", info.args.len()));
                    }
                    let name = self.string()?;
                    let type_name = self.string()?;
                    let access = self.named("access qualifier", AccessQual::from_name)?;
                    let qualifiers = self.type_quals()?;
                    let byval = if self.eat_word("byval") {
                        let size = self.uint("size")?;
                        self.punct(',')?;
                        self.keyword("align")?;
                        Some(ByVal {
                            size,
                            align: self.uint("alignment")?,
                        })
                    } else {
                        None
                    };
                    let arg = ArgInfo {
                        name,
                        type_name,
                        access,
                        qualifiers,
                        byval,
                    };
                    st.func
                        .kernel
                        .as_mut()
                        .expect("checked above")
                        .args
                        .push(arg);
                }
                Some(Tok::Word(w)) if w == "enqueued_block" => {
                    self.pos += 1;
                    let Some(info) = st.func.kernel.as_mut() else {
                        return self.err("'enqueued_block' is only allowed in kernels");
                    };
                    info.enqueued_block = true;
                }
                Some(Tok::Word(w)) if w == "reqd_sub_group_size" => {
                    self.pos += 1;
                    let n = self.uint("size")?;
                    let Some(info) = st.func.kernel.as_mut() else {
                        return self.err("'reqd_sub_group_size' is only allowed in kernels");
                    };
                    info.reqd_sub_group_size = Some(n);
                }
                Some(Tok::Word(w))
                    if w == "reqd_work_group_size"
                        || w == "work_group_size_hint"
                        || w == "vec_type_hint" =>
                {
                    let w = w.clone();
                    self.pos += 1;
                    if st.func.kernel.is_none() {
                        return self.err(format!("'{w}' is only allowed in kernels"));
                    }
                    if w == "vec_type_hint" {
                        let hint = self.string()?;
                        st.func
                            .kernel
                            .as_mut()
                            .expect("checked above")
                            .vec_type_hint = Some(hint);
                    } else {
                        let x = self.uint("size")?;
                        self.punct(',')?;
                        let y = self.uint("size")?;
                        self.punct(',')?;
                        let z = self.uint("size")?;
                        let info = st.func.kernel.as_mut().expect("checked above");
                        if w == "reqd_work_group_size" {
                            info.reqd_work_group_size = Some([x, y, z]);
                        } else {
                            info.work_group_size_hint = Some([x, y, z]);
                        }
                    }
                }
                Some(Tok::Word(w)) if w.starts_with("ss") => {
                    let n = self.entity("ss", "a stack slot")?;
                    if n != st.func.stack_slots.len() {
                        return self.err(format!("expected ss{}", st.func.stack_slots.len()));
                    }
                    self.punct('=')?;
                    self.keyword("stack_slot")?;
                    let size = self.uint("size")?;
                    self.punct(',')?;
                    self.keyword("align")?;
                    let align = self.uint("alignment")?;
                    let interleave = if self.eat_punct(',') {
                        self.keyword("interleaved")?;
                        Some(self.uint("element size")?)
                    } else {
                        None
                    };
                    st.func.stack_slots.push(StackSlotData {
                        size,
                        align,
                        interleave,
                    });
                }
                _ => return Ok(()),
            }
        }
    }

    fn type_quals(&mut self) -> ParseResult<TypeQuals> {
        let mut q = TypeQuals::default();
        if self.eat_word("none") {
            return Ok(q);
        }
        loop {
            match self.word("a type qualifier")?.as_str() {
                "const" => q.is_const = true,
                "restrict" => q.is_restrict = true,
                "volatile" => q.is_volatile = true,
                "pipe" => q.is_pipe = true,
                other => {
                    self.pos -= 1;
                    return self.err(format!("unknown type qualifier '{other}'"));
                }
            }
            if !self.eat_punct('|') {
                return Ok(q);
            }
        }
    }

    fn block(&mut self, st: &mut FuncState) -> ParseResult<()> {
        let n = self.entity("block", "a block header like 'block0:'")?;
        let block = st.block(n);
        if st.defined_blocks[n] {
            self.pos -= 1;
            return self.err(format!("block{n} is defined twice"));
        }
        st.defined_blocks[n] = true;
        st.func.layout.push(block);
        if self.eat_punct('(') {
            loop {
                let v = self.entity("v", "a block parameter")?;
                self.punct(':')?;
                let (ty, varying) = self.lane_ty()?;
                let value = self.define_value(st, v)?;
                st.func.varying[value] = varying;
                let index = st.func.blocks[block].params.len() as u32;
                st.func.values[value] = ValueData {
                    ty,
                    def: ValueDef::Param(block, index),
                };
                st.func.blocks[block].params.push(value);
                if self.eat_punct(')') {
                    break;
                }
                self.punct(',')?;
            }
        }
        self.punct(':')?;
        loop {
            match self.peek() {
                Some(Tok::Punct('}')) => return Ok(()),
                Some(Tok::Word(w)) if w.starts_with("block") && w[5..].parse::<u32>().is_ok() => {
                    return Ok(())
                }
                None => return self.expected("'}'"),
                _ => self.inst(st, block)?,
            }
        }
    }

    fn define_value(&mut self, st: &mut FuncState, n: usize) -> ParseResult<Value> {
        let v = st.value(n);
        if st.func.values[v].def != ValueDef::Unused {
            self.pos -= 1;
            return self.err(format!("v{n} is defined twice"));
        }
        Ok(v)
    }

    fn use_value(&mut self, st: &mut FuncState) -> ParseResult<Value> {
        let n = self.entity("v", "a value like 'v3'")?;
        Ok(st.value(n))
    }

    fn values_sep(&mut self, st: &mut FuncState, count: usize) -> ParseResult<Vec<Value>> {
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            if i > 0 {
                self.punct(',')?;
            }
            out.push(self.use_value(st)?);
        }
        Ok(out)
    }

    /// The operands of a gang operation or subgroup collective: as many as
    /// `arity` requires, then up to its end while a comma follows.
    fn gang_args(
        &mut self,
        st: &mut FuncState,
        arity: std::ops::RangeInclusive<usize>,
    ) -> ParseResult<Vec<Value>> {
        let mut args = Vec::with_capacity(*arity.end());
        for i in 0..*arity.end() {
            if i > 0 {
                if i < *arity.start() {
                    self.punct(',')?;
                } else if !self.eat_punct(',') {
                    break;
                }
            }
            args.push(self.use_value(st)?);
        }
        Ok(args)
    }

    fn two(&mut self, st: &mut FuncState) -> ParseResult<[Value; 2]> {
        let v = self.values_sep(st, 2)?;
        Ok([v[0], v[1]])
    }

    fn three(&mut self, st: &mut FuncState) -> ParseResult<[Value; 3]> {
        let v = self.values_sep(st, 3)?;
        Ok([v[0], v[1], v[2]])
    }

    fn paren_values(&mut self, st: &mut FuncState) -> ParseResult<Vec<Value>> {
        let mut args = Vec::new();
        if self.eat_punct('(') && !self.eat_punct(')') {
            loop {
                args.push(self.use_value(st)?);
                if self.eat_punct(')') {
                    break;
                }
                self.punct(',')?;
            }
        }
        Ok(args)
    }

    fn block_call(&mut self, st: &mut FuncState) -> ParseResult<BlockCall> {
        let line = self.line();
        let n = self.entity("block", "a block like 'block1'")?;
        let block = st.block(n);
        st.first_branch_line[n].get_or_insert(line);
        let args = self.paren_values(st)?;
        Ok(BlockCall { block, args })
    }

    fn order_scope(&mut self) -> ParseResult<(MemOrder, MemScope)> {
        let order = self.named("memory order", MemOrder::from_name)?;
        self.punct(',')?;
        let scope = self.named("memory scope", MemScope::from_name)?;
        Ok((order, scope))
    }

    fn fence_flags(&mut self) -> ParseResult<FenceFlags> {
        if self.eat_word("none") {
            return Ok(FenceFlags::NONE);
        }
        let mut flags = FenceFlags::NONE;
        loop {
            let w = self.word("fence flags")?;
            match FenceFlags::NAMED.iter().find(|(_, n)| *n == w) {
                Some((f, _)) => flags.0 |= f.0,
                None => {
                    self.pos -= 1;
                    return self.err(format!("unknown fence flag '{w}'"));
                }
            }
            if !self.eat_punct('|') {
                return Ok(flags);
            }
        }
    }

    fn inst(&mut self, st: &mut FuncState, block: Block) -> ParseResult<()> {
        let result = match self.peek() {
            Some(Tok::Word(w)) if w.starts_with('v') && w[1..].parse::<u32>().is_ok() => {
                let n = self.entity("v", "a value")?;
                let v = self.define_value(st, n)?;
                self.punct(':')?;
                let (ty, varying) = self.lane_ty()?;
                st.func.varying[v] = varying;
                self.punct('=')?;
                Some((v, ty))
            }
            _ => None,
        };
        let word = self.word("an instruction")?;
        let mut parts = word.split('.');
        let base = parts.next().unwrap_or_default();
        let suffixes: Vec<&str> = parts.collect();
        let result_ty = result.map(|(_, ty)| ty);
        let mut data = self.inst_data(st, base, &suffixes, result_ty)?;
        if matches!(self.peek(), Some(Tok::Word(w)) if w == "if") {
            self.pos += 1;
            data = InstData::Predicated {
                mask: self.use_value(st)?,
                inst: Box::new(data),
            };
        }
        let srcloc = if self.eat_punct('!') {
            let line = self.uint("line")?;
            self.punct(':')?;
            Some(SourceLoc {
                line,
                col: self.uint("column")?,
            })
        } else {
            None
        };
        let inst = st.func.insts.push(data);
        if let Some((v, ty)) = result {
            st.func.values[v] = ValueData {
                ty,
                def: ValueDef::Result(inst),
            };
            st.func.results[inst] = Some(v);
        }
        st.func.srclocs[inst] = srcloc;
        st.func.append_inst(block, inst);
        Ok(())
    }

    fn no_suffix(&self, base: &str, suffixes: &[&str]) -> ParseResult<()> {
        match suffixes.first() {
            Some(s) => self.err_prev(format!("'{base}' takes no suffix, found '.{s}'")),
            None => Ok(()),
        }
    }

    fn inst_data(
        &mut self,
        st: &mut FuncState,
        base: &str,
        suffixes: &[&str],
        result_ty: Option<Type>,
    ) -> ParseResult<InstData> {
        if let Some(op) = ConvertOp::from_name(base) {
            let mut rounding = op.default_rounding();
            let mut saturate = false;
            for s in suffixes {
                match Rounding::from_name(s) {
                    Some(r) => rounding = r,
                    None if *s == "sat" => saturate = true,
                    None => return self.err_prev(format!("unknown conversion suffix '.{s}'")),
                }
            }
            let arg = self.use_value(st)?;
            return Ok(InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            });
        }
        if let Some(op) = GangOp::from_name(base) {
            self.no_suffix(base, suffixes)?;
            let args = self.gang_args(st, op.arity())?;
            return Ok(InstData::Gang { op, args });
        }
        if let Some(op) = DeviceOp::from_name(base) {
            self.no_suffix(base, suffixes)?;
            let kernel = if op.names_kernel() {
                let name = self.global_name()?;
                match self.func_ids.get(&name) {
                    Some(&id) => Some(id),
                    None => {
                        self.pos -= 1;
                        return self.err(format!("{op} of unknown function '@{name}'"));
                    }
                }
            } else {
                None
            };
            let n = op.operands().len();
            let args = if n == 0 {
                Vec::new()
            } else {
                self.values_sep(st, n)?
            };
            return Ok(InstData::DeviceEnqueue { op, kernel, args });
        }
        if base == "sub_group" {
            self.no_suffix(base, suffixes)?;
            let name = self.word("a gang operation")?;
            let op = GangOp::from_name(&name);
            let Some((op, arity)) = op.and_then(|op| Some((op, op.sub_group_arity()?))) else {
                return self.err_prev(format!("'{name}' is not a subgroup operation"));
            };
            let args = self.gang_args(st, arity)?;
            return Ok(InstData::SubGroup { op, args });
        }
        if base == "load" || base == "store" {
            let volatile = match suffixes {
                [] => false,
                ["volatile"] => true,
                _ => return self.err_prev(format!("'{base}' only takes the suffix '.volatile'")),
            };
            let data = if base == "load" {
                let ptr = self.use_value(st)?;
                self.punct(',')?;
                self.keyword("align")?;
                InstData::Load {
                    ptr,
                    align: self.uint("alignment")?,
                    volatile,
                }
            } else {
                let args = self.two(st)?;
                self.punct(',')?;
                self.keyword("align")?;
                InstData::Store {
                    args,
                    align: self.uint("alignment")?,
                    volatile,
                }
            };
            return Ok(data);
        }
        if base == "atomic_rmw" {
            let op = match suffixes {
                [s] => AtomicRmwOp::from_name(s),
                _ => None,
            };
            let Some(op) = op else {
                return self
                    .err_prev("'atomic_rmw' needs an operation suffix, like 'atomic_rmw.add'");
            };
            let args = self.two(st)?;
            self.punct(',')?;
            let (order, scope) = self.order_scope()?;
            return Ok(InstData::AtomicRmw {
                op,
                args,
                order,
                scope,
            });
        }
        self.no_suffix(base, suffixes)?;
        if let Some(op) = UnaryOp::from_name(base) {
            return Ok(InstData::Unary {
                op,
                arg: self.use_value(st)?,
            });
        }
        if let Some(op) = BinaryOp::from_name(base) {
            return Ok(InstData::Binary {
                op,
                args: self.two(st)?,
            });
        }
        if let Some(op) = TernaryOp::from_name(base) {
            return Ok(InstData::Ternary {
                op,
                args: self.three(st)?,
            });
        }
        if let Some(query) = WorkItemQuery::from_name(base) {
            let dim = if query.takes_dim() {
                self.uint("dimension")?
            } else {
                0
            };
            return Ok(InstData::WorkItem { query, dim });
        }
        Ok(match base {
            "iconst" => {
                let bits = self.int_bits()?;
                InstData::Iconst {
                    imm: bits & result_ty.map_or(u64::MAX, Type::int_mask),
                }
            }
            "fconst" => {
                let text = self.number_text()?;
                let bits = match (text.strip_prefix("0x"), result_ty) {
                    (Some(hex), _) => u64::from_str_radix(hex, 16).ok(),
                    (None, Some(Type::F16)) => {
                        return self.err_prev(format!(
                            "f16 constants are written as their bits in hex (like 0x3c00), found '{text}'"
                        ))
                    }
                    (None, Some(Type::F32)) => text.parse::<f32>().ok().map(|x| x.to_bits() as u64),
                    (None, _) => text.parse::<f64>().ok().map(f64::to_bits),
                };
                match bits {
                    Some(bits) => InstData::Fconst { bits },
                    None => return self.err_prev(format!("'{text}' is not a float constant")),
                }
            }
            "icmp" => {
                let cond = self.named("integer condition", IntCC::from_name)?;
                InstData::Icmp {
                    cond,
                    args: self.two(st)?,
                }
            }
            "fcmp" => {
                let cond = self.named("float condition", FloatCC::from_name)?;
                InstData::Fcmp {
                    cond,
                    args: self.two(st)?,
                }
            }
            "select" => InstData::Select {
                args: self.three(st)?,
            },
            "ptradd" => InstData::PtrAdd {
                args: self.two(st)?,
            },
            "stack_addr" => {
                let n = self.entity("ss", "a stack slot like 'ss0'")?;
                if n >= st.func.stack_slots.len() {
                    self.pos -= 1;
                    return self.err(format!("unknown stack slot ss{n}"));
                }
                InstData::StackAddr {
                    slot: StackSlot::new(n),
                }
            }
            "global_addr" => InstData::GlobalAddr {
                global: self.global_ref()?,
            },
            "memcpy" => InstData::MemCopy {
                args: self.three(st)?,
            },
            "memset" => InstData::MemSet {
                args: self.three(st)?,
            },
            "atomic_cas" => {
                let args = self.three(st)?;
                self.punct(',')?;
                let (order, scope) = self.order_scope()?;
                InstData::AtomicCas { args, order, scope }
            }
            "atomic_load" => {
                let ptr = self.use_value(st)?;
                self.punct(',')?;
                let (order, scope) = self.order_scope()?;
                InstData::AtomicLoad { ptr, order, scope }
            }
            "atomic_store" => {
                let args = self.two(st)?;
                self.punct(',')?;
                let (order, scope) = self.order_scope()?;
                InstData::AtomicStore { args, order, scope }
            }
            "fence" => {
                let flags = self.fence_flags()?;
                self.punct(',')?;
                let (order, scope) = self.order_scope()?;
                InstData::Fence {
                    flags,
                    order,
                    scope,
                }
            }
            "barrier" => {
                let flags = self.fence_flags()?;
                self.punct(',')?;
                let scope = self.named("memory scope", MemScope::from_name)?;
                InstData::Barrier { flags, scope }
            }
            "call" => {
                let name = self.global_name()?;
                let func = match self.func_ids.get(&name) {
                    Some(&id) => id,
                    None => {
                        self.pos -= 1;
                        return self.err(format!("call to unknown function '@{name}'"));
                    }
                };
                InstData::Call {
                    func,
                    args: self.paren_values(st)?,
                }
            }
            "async_copied" => {
                let v = self.values_sep(st, 6)?;
                self.punct(',')?;
                self.keyword("elem")?;
                InstData::AsyncCopied {
                    args: [v[0], v[1], v[2], v[3], v[4], v[5]],
                    elem: self.uint("element size")?,
                }
            }
            "async_wait" => InstData::AsyncWait {
                arg: self.use_value(st)?,
            },
            "printf" => {
                let format = self.string()?;
                let mut args = Vec::new();
                while self.eat_punct(',') {
                    args.push(self.use_value(st)?);
                }
                InstData::Printf { format, args }
            }
            "jump" => InstData::Jump {
                dest: self.block_call(st)?,
            },
            "suspend" => {
                let flags = self.fence_flags()?;
                self.punct(',')?;
                let scope = self.named("memory scope", MemScope::from_name)?;
                self.punct(',')?;
                let dest = self.block_call(st)?;
                let arriving = if self.eat_punct(',') {
                    self.keyword("arriving")?;
                    Some(self.use_value(st)?)
                } else {
                    None
                };
                InstData::Suspend {
                    flags,
                    scope,
                    dest,
                    arriving,
                }
            }
            "brif" => {
                let cond = self.use_value(st)?;
                self.punct(',')?;
                let then_dest = self.block_call(st)?;
                self.punct(',')?;
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest: self.block_call(st)?,
                }
            }
            "switch" => {
                let arg = self.use_value(st)?;
                self.punct(',')?;
                let default = self.block_call(st)?;
                self.punct(',')?;
                self.punct('[')?;
                // Case values are masked to the argument's width once the
                // whole function is read (the argument may be defined later).
                let mut cases = Vec::new();
                if !self.eat_punct(']') {
                    loop {
                        let value = self.int_bits()?;
                        self.punct(':')?;
                        cases.push((value, self.block_call(st)?));
                        if self.eat_punct(']') {
                            break;
                        }
                        self.punct(',')?;
                    }
                }
                InstData::Switch {
                    arg,
                    default,
                    cases,
                }
            }
            "return" => {
                let arg = match self.peek() {
                    Some(Tok::Word(w))
                        if w.starts_with('v')
                            && w[1..].parse::<u32>().is_ok()
                            && self.tokens.get(self.pos + 1).map(|t| &t.tok)
                                != Some(&Tok::Punct(':')) =>
                    {
                        Some(self.use_value(st)?)
                    }
                    _ => None,
                };
                InstData::Return { arg }
            }
            "unreachable" => InstData::Unreachable,
            "undef" => InstData::Undef,
            "next_item" => InstData::NextItem,
            other => return self.err_prev(format!("unknown instruction '{other}'")),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn huge_entity_numbers_are_errors_not_allocations() {
        for text in [
            "kernel @k() {\nblock9223372036854775807:\n    return\n}\n",
            "kernel @k() {\nblock0:\n    jump block4000000000\n}\n",
            "kernel @k() {\nblock0:\n    v4000000000: i32 = iconst 0\n    return\n}\n",
        ] {
            let err = super::parse_module(text).expect_err(text);
            assert!(err.message.contains("entity numbers go up to"), "{err:?}");
        }
    }
}
