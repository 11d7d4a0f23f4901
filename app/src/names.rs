//! The "first free name" rule the contest and the league share: a list's new member takes
//! `base`, or `base` with the first number from 2 whose name is not taken, in its page's format.

/// The first of `base`, `numbered(base, 2)`, `numbered(base, 3)`… for which `taken` is false.
pub fn first_free(
    base: &str,
    numbered: impl Fn(&str, u32) -> String,
    taken: impl Fn(&str) -> bool,
) -> String {
    (1..)
        .map(|k| {
            if k == 1 {
                base.to_owned()
            } else {
                numbered(base, k)
            }
        })
        .find(|name| !taken(name))
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::first_free;

    #[test]
    fn base_first_then_the_first_free_number() {
        let numbered = |base: &str, k: u32| format!("{base}-{k}");
        assert_eq!(first_free("a", numbered, |_| false), "a");
        let taken = ["a", "a-2", "a-4"];
        assert_eq!(first_free("a", numbered, |n| taken.contains(&n)), "a-3");
    }
}
