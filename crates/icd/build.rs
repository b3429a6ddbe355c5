//! Links the shared library with `-Bsymbolic-functions`: calls and function
//! addresses inside `liblockstep_icd.so` bind to its own functions, never to
//! the ICD loader's `cl*` functions of the same names (the loader is loaded
//! first, so its symbols would otherwise win).

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
    }
}
