//! `named_enum!`: declares a field-less enum together with its text-format
//! spelling, so `instructions.rs` can stay a list of declarations.

/// Declares `enum $name { $variant, ... }` where each variant is spelled
/// `$text` in the text format, with `name()`, `from_name()`, `ALL` and `Display`.
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The spelling in the text format.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text,)* }
            }

            /// The variant spelled `text`, if any.
            pub fn from_name(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)* _ => None }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
