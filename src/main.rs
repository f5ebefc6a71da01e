//! The `adjutant` binary: all logic lives in the library; this only hands over.

fn main() -> std::process::ExitCode {
    adjutant::cli::main()
}
