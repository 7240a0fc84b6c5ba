//! Arithmetic on written-out vectors and matrices: `(1,2,3) + (4,5,6)`, `2\langle 1,2 \rangle`,
//! a product of `pmatrix` literals, `A^T`, `A^{-1}`, `A^2`, `\operatorname{tr} A`, `\|v\|`.
//!
//! The parser reads such an answer only when the ordinary reading fails ([`super::parse`]), so
//! nothing that was read before is read differently. Every operation builds the expression of
//! each entry (`a + b`, `Σ a_ik b_kj`, cofactor / determinant); the comparison then evaluates
//! those entries as it evaluates any value, exactly where it can. Undefined shapes (a sum of a
//! pair and a triple, a product of two tuples) give `None`: the answer stays unread. A product of
//! two tuples is refused on purpose: the lexer reads `\times` as `\cdot`, so a dot product could
//! not be told from a cross product.

use super::expr::{Expr, Func};

/// The largest matrix inverted (by cofactors) and the largest power taken.
const MAX_INVERSE_SIZE: usize = 3;
const MAX_POWER: i64 = 16;

/// A value of a linear-algebra expression.
#[derive(Debug, Clone)]
pub enum Linear {
    Scalar(Expr),
    /// A tuple of at least two components (`(a, b)`, `\langle a, b, c \rangle`).
    Vector(Vec<Expr>),
    /// Row-major.
    Matrix {
        rows: usize,
        cols: usize,
        cells: Vec<Expr>,
    },
}

fn sum(mut terms: Vec<Expr>) -> Expr {
    if terms.len() == 1 {
        terms.pop().unwrap_or_else(|| Expr::int(0))
    } else {
        Expr::Add(terms)
    }
}

fn times(a: Expr, b: Expr) -> Expr {
    Expr::Mul(vec![a, b])
}

/// The determinant of the `n`×`n` matrix `cells` (row-major), as the sum over permutations
/// (Leibniz); `n` of at most 4 keeps it at 24 terms.
pub fn determinant(n: usize, cells: &[Expr]) -> Expr {
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for k in 0..n {
                let mut q = p.clone();
                q.insert(k, n - 1);
                out.push(q);
            }
        }
        out
    }
    let terms = permutations(n)
        .into_iter()
        .map(|p| {
            let inversions = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).filter(|&(i, j)| p[i] > p[j]).count();
            let product = Expr::Mul((0..n).map(|r| cells[r * n + p[r]].clone()).collect());
            if inversions % 2 == 0 {
                product
            } else {
                Expr::neg(product)
            }
        })
        .collect();
    sum(terms)
}

impl Linear {
    fn map(self, f: impl Fn(Expr) -> Expr) -> Linear {
        match self {
            Linear::Scalar(e) => Linear::Scalar(f(e)),
            Linear::Vector(items) => Linear::Vector(items.into_iter().map(f).collect()),
            Linear::Matrix { rows, cols, cells } => {
                Linear::Matrix { rows, cols, cells: cells.into_iter().map(f).collect() }
            }
        }
    }

    pub fn neg(self) -> Linear {
        self.map(Expr::neg)
    }

    /// `self + other` (`self - other` when `subtract`): entry by entry, same shape only.
    pub fn add(self, other: Linear, subtract: bool) -> Option<Linear> {
        let other = if subtract { other.neg() } else { other };
        let zip = |a: Vec<Expr>, b: Vec<Expr>| a.into_iter().zip(b).map(|(x, y)| sum(vec![x, y])).collect::<Vec<_>>();
        match (self, other) {
            (Linear::Vector(a), Linear::Vector(b)) if a.len() == b.len() => Some(Linear::Vector(zip(a, b))),
            (Linear::Matrix { rows, cols, cells: a }, Linear::Matrix { rows: r, cols: c, cells: b })
                if (rows, cols) == (r, c) =>
            {
                Some(Linear::Matrix { rows, cols, cells: zip(a, b) })
            }
            _ => None,
        }
    }

    /// `self · other`: a scalar times anything, or a matrix product. A scalar times a scalar
    /// and a tuple times a tuple are not this module's (`None`).
    pub fn mul(self, other: Linear) -> Option<Linear> {
        match (self, other) {
            (Linear::Scalar(_), Linear::Scalar(_)) => None,
            (Linear::Scalar(k), x) | (x, Linear::Scalar(k)) => Some(x.map(|e| times(k.clone(), e))),
            (Linear::Matrix { rows, cols: inner, cells: a }, Linear::Matrix { rows: r, cols, cells: b })
                if inner == r =>
            {
                let cells = (0..rows)
                    .flat_map(|i| (0..cols).map(move |j| (i, j)))
                    .map(|(i, j)| {
                        sum((0..inner).map(|k| times(a[i * inner + k].clone(), b[k * cols + j].clone())).collect())
                    })
                    .collect();
                Some(Linear::Matrix { rows, cols, cells })
            }
            _ => None,
        }
    }

    /// The transpose of a matrix (`A^T`, `A^{\top}`); with `conjugate`, the conjugate transpose
    /// (`A^H`, `A^{\dagger}`).
    pub fn transpose(self, conjugate: bool) -> Option<Linear> {
        let Linear::Matrix { rows, cols, cells } = self else { return None };
        let cells = (0..cols)
            .flat_map(|j| (0..rows).map(move |i| (i, j)))
            .map(|(i, j)| {
                let e = cells[i * cols + j].clone();
                if conjugate {
                    Expr::Func(Func::Conj, vec![e])
                } else {
                    e
                }
            })
            .collect();
        Some(Linear::Matrix { rows: cols, cols: rows, cells })
    }

    /// The inverse of a square matrix of at most [`MAX_INVERSE_SIZE`] rows: the transposed
    /// cofactors over the determinant (a singular matrix gives entries that do not evaluate).
    pub fn inverse(self) -> Option<Linear> {
        let Linear::Matrix { rows: n, cols, cells } = self else { return None };
        if n != cols || n > MAX_INVERSE_SIZE {
            return None;
        }
        let det = determinant(n, &cells);
        let minor = |skip_row: usize, skip_col: usize| -> Expr {
            let kept: Vec<Expr> = (0..n)
                .filter(|&r| r != skip_row)
                .flat_map(|r| (0..n).filter(move |&c| c != skip_col).map(move |c| (r, c)))
                .map(|(r, c)| cells[r * n + c].clone())
                .collect();
            determinant(n - 1, &kept)
        };
        let inverse = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| {
                // Entry (i, j) of the inverse is cofactor (j, i) over the determinant.
                let cofactor = if n == 1 { Expr::int(1) } else { minor(j, i) };
                let signed = if (i + j) % 2 == 0 { cofactor } else { Expr::neg(cofactor) };
                Expr::Div(Box::new(signed), Box::new(det.clone()))
            })
            .collect();
        Some(Linear::Matrix { rows: n, cols: n, cells: inverse })
    }

    /// An integer power of a square matrix: the identity for 0, the inverse's power below.
    pub fn power(self, exponent: i64) -> Option<Linear> {
        let Linear::Matrix { rows: n, cols, .. } = &self else { return None };
        let n = *n;
        if n != *cols || exponent.abs() > MAX_POWER {
            return None;
        }
        let base = if exponent < 0 { self.inverse()? } else { self };
        let identity = Linear::Matrix {
            rows: n,
            cols: n,
            cells: (0..n * n).map(|k| Expr::int(i64::from(k / n == k % n))).collect(),
        };
        (0..exponent.unsigned_abs()).try_fold(identity, |acc, _| acc.mul(base.clone()))
    }

    /// The trace of a square matrix.
    pub fn trace(self) -> Option<Linear> {
        let Linear::Matrix { rows: n, cols, cells } = self else { return None };
        (n == cols).then(|| Linear::Scalar(sum((0..n).map(|k| cells[k * n + k].clone()).collect())))
    }

    /// The Euclidean norm of a tuple (`\|v\|`, `|v|`).
    pub fn norm(self) -> Option<Linear> {
        let Linear::Vector(items) = self else { return None };
        let squares = items.into_iter().map(|e| Expr::Pow(Box::new(e), Box::new(Expr::int(2)))).collect();
        Some(Linear::Scalar(Expr::Func(Func::Sqrt, vec![sum(squares)])))
    }
}
