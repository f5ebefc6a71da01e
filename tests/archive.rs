//! The static match archive (`adjutant archive`, issue 20 item 5): for
//! matches played by the bot, the site has every turn and battle page, every
//! link resolves to a file of the site, nothing is fetched from elsewhere,
//! no page has a script, the turn pages link back and forth, and every die
//! of the log is on its pages with its label.

#[path = "common/aae_bot.rs"]
mod aae_bot;
#[path = "common/browser.rs"]
mod browser;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::log::Body;
use adjutant::matches::Match;
use adjutant::matches::history::read_log;
use adjutant::report::turn::report_entries;

/// The match id of `tests/fixtures/aae-players.yaml`.
const ID: &str = "league7-aae-03";

fn fresh(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A match of AAE played by the bot for `rounds` rounds, in `root/id`.
fn played(root: &Path, id: &str, rounds: u32) -> PathBuf {
    let dir = root.join(id);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let players = std::fs::read_to_string(repo.join("tests/fixtures/aae-players.yaml")).unwrap();
    let mut m = Match::create(&dir, &repo.join("games"), "aae", &players).unwrap();
    let played = aae_bot::play(&mut m, rounds, aae_bot::BotConfig::default());
    assert!(played.battles > 0, "the test game needs battles");
    dir
}

fn archive(args: &[&Path], out: &Path) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_adjutant"));
    cmd.arg("archive");
    for a in args {
        cmd.arg("--match").arg(a);
    }
    let o = cmd.arg("--out").arg(out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Every file of the site, with its path relative to the site.
fn files(site: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![site.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The values of `attr="..."` in an HTML page.
fn attrs<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let key = format!("{attr}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// The site is self-contained: every link and image of every page is a
/// relative path to a file that exists; no page or map names a resource
/// elsewhere or holds a script. Returns the number of pages.
fn check_self_contained(site: &Path) -> usize {
    let mut pages = 0;
    for f in files(site) {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "html" && ext != "svg" {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let lower = text.to_ascii_lowercase();
        assert!(!lower.contains("<script"), "{}: a script", f.display());
        assert!(
            !lower.contains("url(http"),
            "{}: a remote resource",
            f.display()
        );
        assert!(!lower.contains("@import"), "{}: an import", f.display());
        if ext == "svg" {
            for a in attrs(&text, "href")
                .into_iter()
                .chain(attrs(&text, "xlink:href"))
            {
                assert!(!a.contains(':'), "{}: {a}", f.display());
            }
            continue;
        }
        pages += 1;
        assert!(
            !lower.contains("http://") && !lower.contains("https://"),
            "{}: names a resource elsewhere",
            f.display()
        );
        for link in attrs(&text, "href").into_iter().chain(attrs(&text, "src")) {
            assert!(
                !link.contains(':') && !link.starts_with('/'),
                "{}: {link}",
                f.display()
            );
            let target = f.parent().unwrap().join(link.split('#').next().unwrap());
            assert!(target.is_file(), "{}: {link} does not resolve", f.display());
        }
    }
    pages
}

/// Checks the pages of one match against its log.
fn check_match(site: &Path, dir: &Path, slug: &str) -> (usize, usize) {
    let entries = read_log(dir).unwrap();
    let m = site.join(slug);
    let index = std::fs::read_to_string(m.join("index.html")).unwrap();
    let head = entries.last().unwrap().hash.to_hex();
    assert!(index.contains(&head), "the match page quotes the log head");
    assert!(index.contains("adjutant verify log.jsonl --head"));
    assert!(index.contains("tools/verify_dice.py"));
    assert_eq!(
        std::fs::read(m.join("log.jsonl")).unwrap(),
        std::fs::read(dir.join("log.jsonl")).unwrap(),
        "the site carries the log itself"
    );
    let seqs = report_entries(&entries);
    let mut battles = 0;
    let mut pending: Vec<String> = Vec::new();
    let mut turn_of: BTreeSet<u64> = BTreeSet::new();
    for e in &entries {
        match &e.body {
            Body::Dice(d) => pending.extend(d.rolls.iter().map(|g| g.label.to_string())),
            Body::Adjudication(a) if a.stage != 0 => {
                let seq = e.seq;
                turn_of.insert(seq);
                let turn = std::fs::read_to_string(m.join(format!("turn-{seq}.html")))
                    .unwrap_or_else(|_| panic!("turn-{seq}.html"));
                assert!(index.contains(&format!("href=\"turn-{seq}.html\"")));
                assert!(turn.contains(&format!("src=\"map-{seq}.svg\"")));
                // The orders as accepted.
                let order = entries[..(seq - 1) as usize]
                    .iter()
                    .rev()
                    .find_map(|e| match &e.body {
                        Body::Order(o) => Some(o.digest.to_string()),
                        _ => None,
                    })
                    .unwrap();
                assert!(turn.contains(&order), "turn-{seq}: its orders' digest");
                // One battle page per battle fought, with every die of its
                // space, labelled.
                let fought: Vec<&str> = a
                    .events
                    .iter()
                    .filter_map(|l| l.strip_prefix("battle in "))
                    .filter_map(|l| l.split_once(" over after ").map(|(s, _)| s))
                    .collect();
                let pages: Vec<String> = (1..)
                    .map(|k| m.join(format!("battle-{seq}-{k}.html")))
                    .take_while(|p| p.is_file())
                    .map(|p| std::fs::read_to_string(p).unwrap())
                    .collect();
                assert!(pages.len() >= fought.len(), "turn-{seq}: {fought:?}");
                for space in &fought {
                    let page = pages
                        .iter()
                        .find(|p| p.contains(&format!("<h1>Battle in {space}</h1>")))
                        .unwrap_or_else(|| panic!("turn-{seq}: no page for {space}"));
                    assert!(page.contains("href=\"turn-"), "a battle links to its turn");
                    for label in pending.iter().filter(|l| l.contains(&format!("/{space}/"))) {
                        assert!(page.contains(label.as_str()), "{space}: {label}");
                    }
                }
                for label in pending.drain(..) {
                    assert!(turn.contains(&label), "turn-{seq}: {label}");
                }
                battles += pages.len();
            }
            _ => {}
        }
    }
    // The turns link back and forth, in log order.
    for w in seqs.windows(2) {
        let a = std::fs::read_to_string(m.join(format!("turn-{}.html", w[0]))).unwrap();
        let b = std::fs::read_to_string(m.join(format!("turn-{}.html", w[1]))).unwrap();
        assert!(a.contains(&format!("href=\"turn-{}.html\" rel=\"next\"", w[1])));
        assert!(b.contains(&format!("href=\"turn-{}.html\" rel=\"prev\"", w[0])));
    }
    assert_eq!(turn_of.len(), seqs.len());
    (seqs.len(), battles)
}

fn size(site: &Path) -> u64 {
    files(site)
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum()
}

#[test]
fn the_site_of_a_one_round_match_has_every_turn_and_battle_and_stands_alone() {
    let root = fresh("archive-one");
    let dir = played(&root, "league7-aae-01", 1);
    let site = root.join("site");
    let said = archive(&[&dir], &site);
    let pages = check_self_contained(&site);
    let (turns, battles) = check_match(&site, &dir, ID);
    assert!(
        turns >= 4 && battles > 0,
        "{turns} turns, {battles} battles"
    );
    assert!(pages >= 2 + turns + battles, "{pages} pages");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(&format!("href=\"{ID}/index.html\"")));
    assert!(
        said.contains(&format!("{turns} turn page(s), {battles} battle page(s)")),
        "{said}"
    );
    eprintln!("{}: {} bytes, {said}", site.display(), size(&site));
    // Written again, it is the same site.
    let before: Vec<Vec<u8>> = files(&site)
        .iter()
        .map(|f| std::fs::read(f).unwrap())
        .collect();
    archive(&[&dir], &site);
    let after: Vec<Vec<u8>> = files(&site)
        .iter()
        .map(|f| std::fs::read(f).unwrap())
        .collect();
    assert!(before == after, "the site is derived from the log alone");
}

#[test]
fn the_site_of_a_directory_of_matches_indexes_them_all() {
    let root = fresh("archive-several");
    let matches = root.join("matches");
    let a = played(&matches, "league7-aae-02", 3);
    let b = played(&matches, "league7-aae-03", 1);
    let site = root.join("site");
    let said = archive(&[&matches], &site);
    assert!(said.contains("2 match(es)"), "{said}");
    check_self_contained(&site);
    // Both carry the fixture's match id: the second gets `ID-2`.
    let (turns, _) = check_match(&site, &a, ID);
    assert!(turns >= 10, "{turns}");
    check_match(&site, &b, &format!("{ID}-2"));
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(&format!("href=\"{ID}/index.html\"")));
    assert!(index.contains(&format!("href=\"{ID}-2/index.html\"")));
    eprintln!("{}: {} bytes, {said}", site.display(), size(&site));
    // A directory that is no match and holds none is refused.
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["archive", "--match"])
        .arg(&empty)
        .arg("--out")
        .arg(root.join("nowhere"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds no match log"));
}

/// `adjutant archive` with its stderr.
fn archive_warned(dir: &Path, out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["archive", "--match"])
        .arg(dir)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stderr).unwrap()
}

/// The maps of a site's match.
fn maps(site: &Path) -> usize {
    files(site)
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
        .count()
}

/// A match whose `map.yaml` is wrong still gets its pages, without maps,
/// and the organiser is told why on the command line (the daemon logs the
/// same: tests/daemon_replies.rs).
#[test]
fn a_bad_map_yaml_is_reported_not_dropped_in_silence() {
    let root = fresh("archive-bad-map");
    let dir = played(&root, "league7-aae-04", 1);
    let site = root.join("site");
    std::fs::write(dir.join("map.yaml"), "geometri: ../board.svg\n").unwrap();
    let said = archive_warned(&dir, &site);
    assert!(said.starts_with("warning: "), "{said}");
    assert!(
        said.contains("map.yaml") && said.contains("geometry: PATH"),
        "{said}"
    );
    assert!(said.contains("have no map"), "{said}");
    let turns = files(&site)
        .iter()
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("turn-"))
        })
        .count();
    assert_eq!(turns, report_entries(&read_log(&dir).unwrap()).len());
    assert!(turns > 0);
    assert_eq!(maps(&site), 0, "no map from a map.yaml that was not read");

    // Geometry that is not there: named.
    std::fs::write(dir.join("map.yaml"), "geometry: ../nowhere.svg\n").unwrap();
    let said = archive_warned(&dir, &site);
    assert!(said.contains("nowhere.svg"), "{said}");

    // Without map.yaml, the board's own map and no warning.
    std::fs::remove_file(dir.join("map.yaml")).unwrap();
    let said = archive_warned(&dir, &site);
    assert_eq!(said, "");
    assert_eq!(maps(&site), turns);
}

/// A page's screenshot by headless Chromium, decoded to RGB(A) rows.
fn screenshot(
    chromium: &Path,
    page: &Path,
    png: &Path,
    width: u32,
    height: u32,
) -> (Vec<u8>, usize) {
    let bytes = browser::screenshot(chromium, page, png, width, height);
    let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (width, height));
    buf.truncate(info.buffer_size());
    let channels = info.line_size / info.width as usize;
    (buf, channels)
}

/// Pixels of colour `rgb` (within a small tolerance).
fn pixels_of(buf: &[u8], channels: usize, rgb: [u8; 3]) -> usize {
    buf.chunks(channels)
        .filter(|p| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= 6))
        .count()
}

#[test]
fn the_index_a_turn_and_a_battle_render_in_headless_chromium() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let root = fresh("archive-chromium");
    let dir = played(&root, "m", 1);
    let site = root.join("site");
    archive(&[&dir], &site);
    let entries = read_log(&dir).unwrap();
    let seq = report_entries(&entries)[0];
    let shots = root.join("png");
    std::fs::create_dir_all(&shots).unwrap();
    let m = site.join(ID);
    for (name, page, words) in [
        ("index", site.join("index.html"), vec!["Match archive", ID]),
        ("match", m.join("index.html"), vec!["adjutant verify"]),
        (
            "turn",
            m.join(format!("turn-{seq}.html")),
            vec!["What changed", "Orders as accepted"],
        ),
        (
            "battle",
            m.join(format!("battle-{seq}-1.html")),
            vec!["Battle in", "The dice by label"],
        ),
    ] {
        let html = std::fs::read_to_string(&page).unwrap();
        for w in words {
            assert!(html.contains(w), "{name}: {w}");
        }
        let (buf, channels) = screenshot(
            &chromium,
            &page,
            &shots.join(format!("{name}.png")),
            1280,
            1400,
        );
        // Not blank: text and tables besides the white page.
        let white = pixels_of(&buf, channels, [255, 255, 255]);
        let all = buf.len() / channels;
        assert!(
            all - white > 3000,
            "{name}: {} pixels not white: the page looks empty",
            all - white
        );
        if name == "turn" {
            // The map is drawn: its sea covers a good part of the view.
            let sea = pixels_of(&buf, channels, [0xbc, 0xd9, 0xee])
                + pixels_of(&buf, channels, [0xa9, 0xcc, 0xe6]);
            assert!(
                sea > all / 10,
                "turn: {sea} sea pixels of {all}: is the map shown?"
            );
        }
    }
}
