//! What a LaTeX command means for answer values, and which relation a relation token is.

/// The relation between two sides of a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relation {
    /// `=`, `==`, `:=`
    Equal,
    /// `<`, `<=`, `≤`, `\le`, `\lt`, ...
    Less,
    /// `>`, `>=`, `≥`, `\ge`, `\gt`, ...
    Greater,
    /// `≈`, `\approx`, `\sim`, `\cong`, ...
    Approx,
    /// `≠`, `≡`, `∈`, `\subset`, `\parallel`, ...
    Other,
}

impl Relation {
    /// The relation a relation token spells (the token text).
    pub fn of_symbol(symbol: &str) -> Relation {
        match symbol {
            "=" | "==" | ":=" => Relation::Equal,
            "<" | "<=" | "≤" | "⩽" | "≦" => Relation::Less,
            ">" | ">=" | "≥" | "⩾" | "≧" => Relation::Greater,
            "≈" | "≃" | "∼" | "≅" => Relation::Approx,
            _ => Relation::Other,
        }
    }

    /// A whole two-sided statement with this relation can itself be an answer (`x = 3`,
    /// `x \le 5`); `≈` and `≠` statements cannot.
    pub fn states_answer(self) -> bool {
        matches!(self, Relation::Equal | Relation::Less | Relation::Greater)
    }
}

/// The role of a LaTeX command (its name without the backslash).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CommandClass {
    /// Makes a value: `\frac`, `\sqrt`, `\pi`, `\infty`, `\binom`, `\emptyset`, `\mathbb`.
    Value,
    /// Wraps words: `\text`, `\textbf`, `\mathrm`, `\mbox`, `\operatorname`.
    Text,
    /// Names a quantity: Greek letters other than `\pi`, `\angle`, `\overline`, `\vec`.
    Name,
    /// A function applied to a value: `\sin`, `\log`, `\gcd`, `\max`.
    Function,
    /// Arithmetic between values: `\cdot`, `\times`, `\div`, `\pm`, `\cup`.
    Operator,
    Relation(Relation),
    /// Between two statements: `\quad`, `\implies`, `\Rightarrow`, `\therefore`.
    Separator,
    /// Sizes the bracket that follows: `\left`, `\right`, `\big`, ...
    Sizing,
    /// No meaning for values: `\displaystyle`, `\nonumber`, `\begin{aligned}`.
    Transparent,
    /// `\ldots`, `\cdots`, `\dots`
    Ellipsis,
    /// `\boxed`, `\fbox`
    Box,
    /// Anything else (`\lfloor`, `\circ`, unknown macros): neutral.
    Other,
}

pub(crate) fn command_class(name: &str) -> CommandClass {
    use CommandClass::*;
    if name.starts_with("begin{") || name.starts_with("end{") {
        return Transparent;
    }
    match name {
        "frac" | "dfrac" | "tfrac" | "cfrac" | "sqrt" | "binom" | "dbinom" | "tbinom" | "pi" | "infty" | "emptyset"
        | "varnothing" | "mathbb" => Value,
        "text" | "textbf" | "textit" | "textrm" | "textsf" | "texttt" | "textnormal" | "mathrm" | "mathbf"
        | "mathit" | "mathsf" | "mbox" | "operatorname" | "emph" => Text,
        "alpha" | "beta" | "gamma" | "delta" | "epsilon" | "varepsilon" | "zeta" | "eta" | "theta" | "vartheta"
        | "iota" | "kappa" | "lambda" | "mu" | "nu" | "xi" | "rho" | "sigma" | "tau" | "upsilon" | "phi" | "varphi"
        | "chi" | "psi" | "omega" | "Gamma" | "Delta" | "Theta" | "Lambda" | "Xi" | "Sigma" | "Phi" | "Psi"
        | "Omega" | "angle" | "measuredangle" | "triangle" | "overline" | "overrightarrow" | "vec" | "hat"
        | "widehat" | "bar" | "tilde" | "dot" | "ddot" | "mathcal" => Name,
        "sin" | "cos" | "tan" | "cot" | "sec" | "csc" | "arcsin" | "arccos" | "arctan" | "sinh" | "cosh" | "tanh"
        | "log" | "ln" | "lg" | "exp" | "det" | "gcd" | "lim" | "max" | "min" | "mod" | "bmod" | "pmod" | "deg"
        | "arg" => Function,
        "cdot" | "times" | "div" | "pm" | "mp" | "cup" | "cap" | "setminus" => Operator,
        "le" | "leq" | "leqslant" | "lt" => Relation(self::Relation::Less),
        "ge" | "geq" | "geqslant" | "gt" => Relation(self::Relation::Greater),
        "approx" | "simeq" | "sim" | "cong" | "doteq" => Relation(self::Relation::Approx),
        "ne" | "neq" | "equiv" | "in" | "notin" | "subset" | "subseteq" | "supset" | "supseteq" | "propto"
        | "parallel" | "perp" => Relation(self::Relation::Other),
        "quad" | "qquad" | "implies" | "Rightarrow" | "Longrightarrow" | "Leftrightarrow" | "Longleftrightarrow"
        | "iff" | "rightarrow" | "longrightarrow" | "to" | "mapsto" | "therefore" | "because" => Separator,
        "left" | "right" | "big" | "Big" | "bigg" | "Bigg" | "bigl" | "bigr" | "Bigl" | "Bigr" | "biggl" | "biggr"
        | "Biggl" | "Biggr" => Sizing,
        "displaystyle" | "textstyle" | "nonumber" | "notag" | "limits" | "nolimits" => Transparent,
        "ldots" | "cdots" | "dots" | "dotsc" | "dotsb" => Ellipsis,
        "boxed" | "fbox" => Box,
        _ => Other,
    }
}

/// Words that join statements inside `\text{...}`: `x = 1 \text{ or } x = 2`.
pub(crate) fn is_connective(word: &str) -> bool {
    matches!(
        word.trim().to_ascii_lowercase().as_str(),
        "and"
            | "or"
            | "so"
            | "then"
            | "where"
            | "since"
            | "if"
            | "for"
            | "thus"
            | "hence"
            | "but"
            | "because"
            | "when"
            | "with"
            | "i.e."
            | "i.e.,"
            | "and so"
            | "which gives"
    )
}

/// Plain-text function names that take an argument: `sqrt(2)`, `log_6 x`, `8321 mod 1000`.
pub(crate) fn is_function_word(word: &str) -> bool {
    matches!(
        word,
        "sqrt"
            | "cbrt"
            | "sin"
            | "cos"
            | "tan"
            | "cot"
            | "sec"
            | "csc"
            | "arcsin"
            | "arccos"
            | "arctan"
            | "sinh"
            | "cosh"
            | "tanh"
            | "log"
            | "ln"
            | "lg"
            | "exp"
            | "gcd"
            | "lcm"
            | "mod"
            | "det"
            | "floor"
            | "ceil"
            | "abs"
            | "max"
            | "min"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(command_class("frac"), CommandClass::Value);
        assert_eq!(command_class("theta"), CommandClass::Name);
        assert_eq!(command_class("leq"), CommandClass::Relation(Relation::Less));
        assert_eq!(command_class("begin{aligned}"), CommandClass::Transparent);
        assert_eq!(command_class("lfloor"), CommandClass::Other);
        assert!(Relation::of_symbol("=").states_answer());
        assert!(!Relation::of_symbol("≈").states_answer());
        assert!(is_connective(" or "));
        assert!(!is_connective("cm"));
    }
}
