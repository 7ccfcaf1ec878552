//! The house's floors: no crate depends on one above it, the rating crate stands alone, and no
//! module imports one that imports it back. The module graph is built from the source text of
//! every crate under `crates/`, as if they were one crate whose top modules are the crates
//! (`rungs_ladder::replay` and, inside the ladder crate, `crate::replay` are both the module
//! `ladder::replay`): a module's path comes from its file's path; it imports what its
//! `use crate::…`, `use super::…` and `use self::…` trees name, what any `crate::…` or
//! `super::…` path names, and any child module it reaches by a path
//! (`files::mapping_for_file` in a parent). Each path counts for the deepest module it names.
//! Comments, string and character literals and `#[cfg(test)]` items are not read: a test
//! module may reach anywhere. Then every strongly connected component of more than one
//! module is a cycle, and the test names its modules and the imports inside it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `dir`, as (module path, source text).
fn read_modules(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_modules(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((module_of(&path, root), text));
        }
    }
}

/// `src/app/state.rs` → `app::state`; `src/app/mod.rs` → `app`; `lib.rs` and `main.rs` → ``.
fn module_of(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).expect("under the root");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts.join("::")
}

/// The text with comments, string literals and character literals blanked out (lifetimes
/// kept), so that only code is read.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let prev_ident = i > 0 && ident(c[i - 1]);
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if !prev_ident && (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) && {
            let start = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = c[start..].iter().take_while(|&&h| h == '#').count();
            c.get(start + hashes) == Some(&'"')
        } {
            // A raw string: r"…", r#"…"#, br"…".
            let start = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = c[start..].iter().take_while(|&&h| h == '#').count();
            i = start + hashes + 1;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"'
                    && c[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            // An escaped character: '\n', '\u{200b}'.
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The text without the items marked `#[cfg(test)]` (a `mod tests { … }`, a test-only `use`
/// or function).
fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, ch) in item.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Path, // ::
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other,
}

fn tokens(code: &str) -> Vec<Token> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(c[start..i].iter().collect()));
            continue;
        }
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Token::Path);
            i += 2;
            continue;
        }
        out.push(match ch {
            '{' => Token::Open,
            '}' => Token::Close,
            ',' => Token::Comma,
            ';' => Token::Semi,
            '*' => Token::Star,
            _ => Token::Other,
        });
        i += 1;
    }
    out
}

/// Expands the use tree at `t[*i..]` into full paths, each prefixed by `prefix`.
fn use_tree(t: &[Token], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match t.get(*i) {
            Some(Token::Ident(name)) if name == "as" => {
                *i += 2; // `as name`
                out.push(path);
                return;
            }
            Some(Token::Ident(name)) => {
                if name != "self" || path.is_empty() {
                    path.push(name.clone());
                }
                *i += 1;
            }
            Some(Token::Path) => *i += 1,
            Some(Token::Open) => {
                *i += 1;
                loop {
                    match t.get(*i) {
                        Some(Token::Close) => {
                            *i += 1;
                            return;
                        }
                        Some(Token::Comma) => *i += 1,
                        None => return,
                        _ => use_tree(t, i, &path, out),
                    }
                }
            }
            Some(Token::Star) => {
                *i += 1;
                out.push(path);
                return;
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// The module `path` names from module `current`: the deepest one of the path's prefixes,
/// or `None` for a path outside the crate (`std::…`, a dependency, a local name).
fn resolve(path: &[String], current: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut base: Vec<String> = if current.is_empty() {
        Vec::new()
    } else {
        current.split("::").map(str::to_string).collect()
    };
    let mut parts = path;
    match parts.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            parts = &parts[1..];
        }
        Some("super") => {
            while parts.first().is_some_and(|p| p == "super") {
                base.pop();
                parts = &parts[1..];
            }
        }
        Some("self") => parts = &parts[1..],
        Some(first) => {
            // A child module named directly (`files::Purpose` in `app`).
            let mut child = base.clone();
            child.push(first.to_string());
            if !modules.contains(&child.join("::")) {
                return None;
            }
        }
        None => return None,
    }
    (0..=parts.len()).rev().find_map(|n| {
        let mut m = base.clone();
        m.extend_from_slice(&parts[..n]);
        let m = m.join("::");
        modules.contains(&m).then_some(m)
    })
}

/// What each module imports (itself left out).
fn graph(files: &[(String, String)]) -> Graph {
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges = Graph::new();
    for (module, text) in files {
        let t = tokens(&without_test_items(&code_only(text)));
        let mut paths: Vec<Vec<String>> = Vec::new();
        let mut i = 0;
        while i < t.len() {
            match &t[i] {
                Token::Ident(w) if w == "use" => {
                    i += 1;
                    use_tree(&t, &mut i, &[], &mut paths);
                }
                Token::Ident(first) if i == 0 || t[i - 1] != Token::Path => {
                    // A path in code: `crate::a::b`, `super::x`, `child::item`.
                    let mut path = vec![first.clone()];
                    let mut j = i + 1;
                    while let (Some(Token::Path), Some(Token::Ident(next))) =
                        (t.get(j), t.get(j + 1))
                    {
                        path.push(next.clone());
                        j += 2;
                    }
                    if path.len() > 1 {
                        paths.push(path);
                    }
                    i = j;
                }
                _ => i += 1,
            }
        }
        let found = edges.entry(module.clone()).or_default();
        for p in paths {
            if let Some(to) = resolve(&p, module, &modules)
                && to != *module
            {
                found.insert(to);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    struct Walk<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on.insert(v);
        for to in w.g.get(v).into_iter().flatten() {
            let to = to.as_str();
            if !w.index.contains_key(to) {
                visit(w, to);
                let l = w.low[v].min(w.low[to]);
                w.low.insert(v, l);
            } else if w.on.contains(to) {
                let l = w.low[v].min(w.index[to]);
                w.low.insert(v, l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut comp = Vec::new();
            while let Some(x) = w.stack.pop() {
                w.on.remove(x);
                comp.push(x.to_string());
                if x == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                w.found.push(comp);
            }
        }
    }
    let mut w = Walk {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in g.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found.sort();
    w.found
}

/// Each cycle with the imports among its modules, as the failure names it.
fn describe(g: &Graph, found: &[Vec<String>]) -> String {
    let mut text = String::new();
    for comp in found {
        text.push_str(&format!("cycle: {}\n", comp.join(", ")));
        for m in comp {
            let inside: Vec<&str> = g[m]
                .iter()
                .filter(|t| comp.contains(t))
                .map(String::as_str)
                .collect();
            text.push_str(&format!("    {m} -> {}\n", inside.join(", ")));
        }
    }
    text
}

/// The crates from the bottom of the house up: each may depend only on crates before it.
const FLOORS: &[&str] = &[
    "rating",
    "ladder",
    "pairing",
    "analysis",
    "store",
    "interchange",
    "gate",
    "chart",
    "publish",
    "cli",
    "app",
];

fn workspace() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates")
}

/// Every crate's modules, named as one crate's: `ladder::replay` for
/// `crates/ladder/src/replay.rs`. In the text, `crate::` becomes the crate's own name and
/// `rungs_x::` the name `x`, so that a path into another crate reads as a path into a module.
fn workspace_modules() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for name in FLOORS {
        let src = workspace().join(name).join("src");
        let mut own = Vec::new();
        read_modules(&src, &src, &mut own);
        for (module, text) in own {
            let module = if module.is_empty() {
                name.to_string()
            } else {
                format!("{name}::{module}")
            };
            let mut text = text.replace("crate::", &format!("crate::{name}::"));
            for other in FLOORS {
                text = text.replace(&format!("rungs_{other}::"), &format!("crate::{other}::"));
                text = text.replace(&format!("rungs_{other} as"), &format!("crate::{other} as"));
            }
            files.push((module, text));
        }
    }
    files.push((
        String::new(),
        FLOORS.iter().map(|f| format!("pub mod {f};")).collect(),
    ));
    files
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let files = workspace_modules();
    let g = graph(&files);
    // The graph is read at all: the app's root reaches its state, the state its errors, and
    // a path into another crate counts.
    assert!(g["app"].contains("app::state"), "{:?}", g["app"]);
    assert!(
        g["app::state"].contains("app::error"),
        "{:?}",
        g["app::state"]
    );
    assert!(g["store"].contains("ladder::replay"), "{:?}", g["store"]);
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "modules that import each other:\n{}",
        describe(&g, &found)
    );
}

/// What each crate's manifest says it depends on among the workspace's crates.
fn crate_dependencies(name: &str) -> BTreeSet<String> {
    let manifest = workspace().join(name).join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut section = String::new();
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
        } else if section == "[dependencies]"
            && let Some(rest) = line.strip_prefix("rungs-")
        {
            let dep: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            found.insert(dep);
        }
    }
    found
}

#[test]
fn no_crate_depends_on_one_above_it() {
    let mut listed: Vec<String> = std::fs::read_dir(workspace())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "testkit")
        .collect();
    listed.sort();
    let mut floors: Vec<String> = FLOORS.iter().map(|f| f.to_string()).collect();
    floors.sort();
    assert_eq!(listed, floors, "every crate has its floor");
    let mut above = Vec::new();
    for (i, name) in FLOORS.iter().enumerate() {
        for dep in crate_dependencies(name) {
            match FLOORS.iter().position(|f| *f == dep) {
                Some(j) if j < i => {}
                _ => above.push(format!("{name} depends on {dep}")),
            }
        }
    }
    assert!(above.is_empty(), "{above:?}");
    // The reading is real: the store stands on the ladder, the app on the gate.
    assert!(crate_dependencies("store").contains("ladder"));
    assert!(crate_dependencies("app").contains("gate"));
}

/// `cargo tree -p rungs-rating`: the rating systems build without a window, a database or a
/// renderer, as a library of their own.
#[test]
fn the_rating_crate_stands_alone() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "-p",
            "rungs-rating",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        tree.contains("rungs-rating") && tree.contains("libm"),
        "{tree}"
    );
    for heavy in [
        "egui",
        "eframe",
        "rusqlite",
        "resvg",
        "rungs-ladder",
        "chrono",
    ] {
        assert!(
            !tree
                .lines()
                .any(|l| l.split_whitespace().next() == Some(heavy)),
            "rungs-rating pulls in {heavy}:\n{tree}"
        );
    }
}

/// The reader on a made-up crate: a cycle through `use super::…` and a bare `crate::…` path,
/// one through a parent's path into its child, and imports that must not count (in a
/// comment, a string, a character literal's neighbourhood and a test module).
#[test]
fn the_reader_finds_cycles_and_only_real_imports() {
    let file = |m: &str, text: &str| (m.to_string(), text.to_string());
    let files = vec![
        file("", "pub mod a; pub mod b; pub mod c; pub mod p;"),
        file(
            "a",
            "use crate::b::{self, Thing as Other};\nfn f() { let _ = '{'; }",
        ),
        file("b", "fn g() -> u8 { crate::a::value() }"),
        file(
            "c",
            "// use crate::a;\n/* crate::b::x */\nconst S: &str = \"crate::a::y\";\n\
             const R: &str = r#\"use super::b;\"#;\nfn h<'a>(x: &'a str) {}\n\
             #[cfg(test)]\nmod tests { use crate::a; use super::b; }\n\
             pub fn f() -> u8 { 1 }",
        ),
        file("p", "pub mod q; fn go() { q::run(); }"),
        file("p::q", "use super::super::p; pub fn run() {}"),
    ];
    let g = graph(&files);
    assert_eq!(
        g["c"],
        BTreeSet::new(),
        "nothing c says in comments, strings or tests counts"
    );
    assert_eq!(g["a"], BTreeSet::from(["b".to_string()]));
    assert_eq!(g["p"], BTreeSet::from(["p::q".to_string()]));
    assert_eq!(
        cycles(&g),
        vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["p".to_string(), "p::q".to_string()],
        ]
    );
    let text = describe(&g, &cycles(&g));
    assert!(
        text.contains("cycle: a, b\n    a -> b\n    b -> a\n"),
        "{text}"
    );
}
