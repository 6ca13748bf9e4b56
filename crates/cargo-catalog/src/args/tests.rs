use clap::CommandFactory as _;

use super::*;

#[test]
fn the_command_line_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn unusable_values_are_named() {
    assert_eq!(positive("3"), Ok(3));
    assert_eq!(positive("0"), Err("must be a positive whole number".into()));
    assert!(weights("name=2,k1=1.5").is_ok());
    assert_eq!(
        weights("name"),
        Err("weight `name` is not key=value".into())
    );
    assert_eq!(weights("nom=2"), Err("unknown weight `nom`".into()));
}
