//! Checking a module before a browser worker runs it, and fitting it with its memory limit.
//!
//! The browser cannot watch a module's own linear memory grow (there is no limiter hook as in
//! `wasmtime`), so the module is re-encoded before it is instantiated: every `memory.grow` of
//! memory 0 becomes a call to one added import, `quadrille.memory_grow`, which the host answers
//! by growing the memory up to the limit and by stopping the program past it — exactly where the
//! native host's limiter stops it, so that both give `pilot_memory` for the same module.

use wasm_encoder::reencode::{self, Reencode};
use wasmparser::{Operator, Parser, Payload, TypeRef, Validator};

/// The only import module a WASI preview-1 command may use.
pub const WASI_MODULE: &str = "wasi_snapshot_preview1";

/// The module and name of the import that stands for `memory.grow` in a re-encoded module.
pub const GROW_MODULE: &str = "quadrille";
pub const GROW_NAME: &str = "memory_grow";

/// Every function of WASI preview 1: a module importing anything else is not a WASI command.
pub const WASI_FUNCTIONS: [&str; 46] = [
    "args_get",
    "args_sizes_get",
    "environ_get",
    "environ_sizes_get",
    "clock_res_get",
    "clock_time_get",
    "fd_advise",
    "fd_allocate",
    "fd_close",
    "fd_datasync",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_fdstat_set_rights",
    "fd_filestat_get",
    "fd_filestat_set_size",
    "fd_filestat_set_times",
    "fd_pread",
    "fd_prestat_get",
    "fd_prestat_dir_name",
    "fd_pwrite",
    "fd_read",
    "fd_readdir",
    "fd_renumber",
    "fd_seek",
    "fd_sync",
    "fd_tell",
    "fd_write",
    "path_create_directory",
    "path_filestat_get",
    "path_filestat_set_times",
    "path_link",
    "path_open",
    "path_readlink",
    "path_remove_directory",
    "path_rename",
    "path_symlink",
    "path_unlink_file",
    "poll_oneoff",
    "proc_exit",
    "proc_raise",
    "random_get",
    "sched_yield",
    "sock_accept",
    "sock_recv",
    "sock_send",
    "sock_shutdown",
];

/// Bytes of one WebAssembly page.
const PAGE: u64 = 1 << 16;

/// Why a module cannot be run as a WASI command (the native host's words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("not a WebAssembly module: {0}")]
    NotAModule(String),
    #[error("not a WASI preview-1 command module: {0}")]
    NotACommand(String),
}

/// A checked command, ready for a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The module to instantiate: the original, with `memory.grow` routed through
    /// [`GROW_MODULE`].[`GROW_NAME`] when it has any.
    pub bytes: Vec<u8>,
    /// The WASI functions it imports, by name.
    pub imports: Vec<String>,
    /// The bytes of linear memory it starts with.
    pub initial_memory: u64,
    /// Whether the module grows its memory (and so imports the guard).
    pub guarded: bool,
}

/// Checks that `bytes` is a valid WASI preview-1 command (every import a WASI function, a
/// `_start` without parameters or results, an exported `memory`), and re-encodes it with its
/// memory growth guarded.
pub fn prepare(bytes: &[u8]) -> Result<Prepared, LoadError> {
    Validator::new()
        .validate_all(bytes)
        .map_err(|e| LoadError::NotAModule(e.message().to_owned()))?;
    let mut func_types: Vec<u32> = Vec::new();
    let mut types: Vec<(usize, usize)> = Vec::new();
    let mut imports = Vec::new();
    let mut imported_funcs = 0u32;
    let mut start = None;
    let mut reactor = false;
    let mut memory_export = false;
    let mut memories: Vec<u64> = Vec::new();
    let mut grows = false;
    let not_a_module = |e: wasmparser::BinaryReaderError| LoadError::NotAModule(e.to_string());
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.map_err(not_a_module)? {
            Payload::TypeSection(section) => {
                for group in section.into_iter_err_on_gc_types() {
                    let ty = group.map_err(not_a_module)?;
                    types.push((ty.params().len(), ty.results().len()));
                }
            }
            Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    let import = import.map_err(not_a_module)?;
                    if import.module != WASI_MODULE || !WASI_FUNCTIONS.contains(&import.name) {
                        return Err(LoadError::NotACommand(format!(
                            "it imports {}.{}, which is not part of WASI preview 1 ({WASI_MODULE})",
                            import.module, import.name
                        )));
                    }
                    match import.ty {
                        TypeRef::Func(ty) => {
                            imported_funcs += 1;
                            func_types.push(ty);
                            imports.push(import.name.to_owned());
                        }
                        _ => {
                            return Err(LoadError::NotACommand(format!(
                                "it imports {}.{} as something else than a function",
                                import.module, import.name
                            )));
                        }
                    }
                }
            }
            Payload::FunctionSection(section) => {
                for ty in section {
                    func_types.push(ty.map_err(not_a_module)?);
                }
            }
            Payload::MemorySection(section) => {
                for memory in section {
                    memories.push(memory.map_err(not_a_module)?.initial);
                }
            }
            Payload::ExportSection(section) => {
                for export in section {
                    let export = export.map_err(not_a_module)?;
                    match (export.name, export.kind) {
                        ("_start", wasmparser::ExternalKind::Func) => start = Some(export.index),
                        ("_start", _) => start = Some(u32::MAX),
                        ("_initialize", _) => reactor = true,
                        ("memory", wasmparser::ExternalKind::Memory) => memory_export = true,
                        _ => {}
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                let mut reader = body.get_operators_reader().map_err(not_a_module)?;
                while !reader.eof() {
                    if let Operator::MemoryGrow { mem: 0 } = reader.read().map_err(not_a_module)? {
                        grows = true;
                    }
                }
            }
            _ => {}
        }
    }
    let signature = start
        .and_then(|f| func_types.get(f as usize))
        .and_then(|&ty| types.get(ty as usize));
    match (start, signature) {
        (Some(_), Some((0, 0))) => {}
        (Some(_), _) => {
            return Err(LoadError::NotACommand(
                "its `_start` export is not a function without parameters and results".into(),
            ));
        }
        (None, _) if reactor => {
            return Err(LoadError::NotACommand(
                "it is a WASI reactor (it exports `_initialize`, no `_start`)".into(),
            ));
        }
        (None, _) => {
            return Err(LoadError::NotACommand(
                "it exports no `_start` function".into(),
            ));
        }
    }
    if !memory_export {
        return Err(LoadError::NotACommand(
            "it exports no linear memory named `memory`".into(),
        ));
    }
    let initial_memory = memories.first().map_or(0, |pages| pages * PAGE);
    let bytes = if grows {
        guard_growth(bytes, imported_funcs, types.len() as u32)?
    } else {
        bytes.to_vec()
    };
    Ok(Prepared {
        bytes,
        imports,
        initial_memory,
        guarded: grows,
    })
}

/// The re-encoder: one function type and one import added at the ends of their sections, every
/// later function index shifted by one, `memory.grow` of memory 0 turned into a call.
struct Guard {
    imported_funcs: u32,
    grow_type: u32,
    import_written: bool,
}

impl Reencode for Guard {
    type Error = std::convert::Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Self::Error>> {
        Ok(if func >= self.imported_funcs {
            func + 1
        } else {
            func
        })
    }

    fn instruction<'a>(
        &mut self,
        op: Operator<'a>,
    ) -> Result<wasm_encoder::Instruction<'a>, reencode::Error<Self::Error>> {
        match op {
            Operator::MemoryGrow { mem: 0 } => {
                Ok(wasm_encoder::Instruction::Call(self.imported_funcs))
            }
            op => reencode::utils::instruction(self, op),
        }
    }

    fn parse_type_section(
        &mut self,
        types: &mut wasm_encoder::TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_type_section(self, types, section)?;
        types
            .ty()
            .function([wasm_encoder::ValType::I32], [wasm_encoder::ValType::I32]);
        Ok(())
    }

    fn parse_import_section(
        &mut self,
        imports: &mut wasm_encoder::ImportSection,
        section: wasmparser::ImportSectionReader<'_>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        reencode::utils::parse_import_section(self, imports, section)?;
        self.add_import(imports);
        Ok(())
    }

    fn intersperse_section_hook(
        &mut self,
        module: &mut wasm_encoder::Module,
        after: Option<wasm_encoder::SectionId>,
        before: Option<wasm_encoder::SectionId>,
    ) -> Result<(), reencode::Error<Self::Error>> {
        // A module without imports gets an import section right after its types.
        if after == Some(wasm_encoder::SectionId::Type)
            && before != Some(wasm_encoder::SectionId::Import)
            && !self.import_written
        {
            let mut imports = wasm_encoder::ImportSection::new();
            self.add_import(&mut imports);
            module.section(&imports);
        }
        Ok(())
    }
}

impl Guard {
    fn add_import(&mut self, imports: &mut wasm_encoder::ImportSection) {
        imports.import(
            GROW_MODULE,
            GROW_NAME,
            wasm_encoder::EntityType::Function(self.grow_type),
        );
        self.import_written = true;
    }
}

fn guard_growth(bytes: &[u8], imported_funcs: u32, types: u32) -> Result<Vec<u8>, LoadError> {
    let mut guard = Guard {
        imported_funcs,
        grow_type: types,
        import_written: false,
    };
    let mut module = wasm_encoder::Module::new();
    guard
        .parse_core_module(&mut module, Parser::new(0), bytes)
        .map_err(|e| LoadError::NotAModule(format!("cannot re-encode it: {e}")))?;
    Ok(module.finish())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn wat(text: &str) -> Vec<u8> {
        wat::parse_str(text).unwrap()
    }

    const WRITE: &str = r#"(import "wasi_snapshot_preview1" "fd_write"
        (func $w (param i32 i32 i32 i32) (result i32)))"#;

    #[test]
    fn growth_becomes_a_call_of_the_guard_and_calls_shift() {
        let module = wat(&format!(
            r#"(module {WRITE} (memory (export "memory") 1)
                 (func $grow (result i32) (memory.grow (i32.const 1)))
                 (func (export "_start") (drop (call $grow))
                   (drop (call $w (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 0)))))"#
        ));
        let prepared = prepare(&module).unwrap();
        assert!(prepared.guarded);
        assert_eq!(prepared.imports, ["fd_write"]);
        assert_eq!(prepared.initial_memory, 65536);
        let text = wasmprinter::print_bytes(&prepared.bytes).unwrap();
        assert!(!text.contains("memory.grow"), "{text}");
        assert!(
            text.contains(r#"(import "quadrille" "memory_grow""#),
            "{text}"
        );
        // The guard is import 1, `$grow` (it calls the guard) now function 2, `_start` 3.
        assert!(text.contains("(func $grow (;2;)"), "{text}");
        assert!(text.contains("i32.const 1\n    call 1\n"), "{text}");
        assert!(text.contains(r#"(export "_start" (func 3))"#), "{text}");
        assert!(text.contains("call $w"), "{text}");
        Validator::new().validate_all(&prepared.bytes).unwrap();
    }

    #[test]
    fn a_module_without_imports_gets_an_import_section() {
        let module = wat(r#"(module (memory (export "memory") 1)
              (func (export "_start") (drop (memory.grow (i32.const 1600)))))"#);
        let prepared = prepare(&module).unwrap();
        Validator::new().validate_all(&prepared.bytes).unwrap();
        let text = wasmprinter::print_bytes(&prepared.bytes).unwrap();
        assert!(text.contains("call 0"), "{text}");
    }

    #[test]
    fn a_module_that_never_grows_is_left_as_it_is() {
        let module = wat(r#"(module (memory (export "memory") 200) (func (export "_start")))"#);
        let prepared = prepare(&module).unwrap();
        assert!(!prepared.guarded);
        assert_eq!(prepared.bytes, module);
        assert_eq!(prepared.initial_memory, 200 * 65536);
    }

    #[test]
    fn what_is_not_a_command_is_refused_with_the_native_words() {
        let cases = [
            (b"\0asm\x02".to_vec(), "not a WebAssembly module"),
            (
                wat(
                    r#"(module (import "env" "f" (func)) (memory (export "memory") 1)
                     (func (export "_start")))"#,
                ),
                "env.f, which is not part of WASI preview 1",
            ),
            (
                wat(r#"(module (memory (export "memory") 1))"#),
                "no `_start`",
            ),
            (
                wat(r#"(module (memory (export "memory") 1) (func (export "_initialize")))"#),
                "reactor",
            ),
            (
                wat(r#"(module (memory (export "memory") 1)
                     (func (export "_start") (param i32)))"#),
                "without parameters",
            ),
            (
                wat(r#"(module (func (export "_start")))"#),
                "no linear memory",
            ),
        ];
        for (bytes, words) in cases {
            let err = prepare(&bytes).unwrap_err().to_string();
            assert!(err.contains(words), "{err}");
        }
    }
}
