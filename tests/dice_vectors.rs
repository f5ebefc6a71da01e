//! The test vectors of `docs/dice.md` are computed here and must match the
//! document exactly, so the published specification cannot drift from the
//! code (and `tools/verify_dice.py --self-test` checks the same block).

use adjutant::dice::{
    BeaconNetwork, BeaconRound, Digest32, Label, LabelStream, OrderDigest, TurnKey, TurnSecret,
    key_order,
};

fn dice(key: &TurnKey, label: &str, sides: u32, count: usize) -> String {
    let label = Label::new(label).unwrap();
    let mut s = LabelStream::new(key, &label);
    let v: Vec<String> = (0..count).map(|_| s.roll(sides).to_string()).collect();
    v.join(" ")
}

/// The vectors as `name = value` lines, in the document's order.
fn computed() -> Vec<String> {
    let match_id = "league7-aae-03";
    let turn = 3;
    let secret = TurnSecret::from_bytes(std::array::from_fn(|i| i as u8));
    let orders = [
        (
            "Germany",
            "purchase: 6 infantry, 2 armor\nentropy: for the Fatherland\n",
        ),
        (
            "Soviet Union",
            "standing:\n  losses: infantry, artillery, armor\n",
        ),
    ];
    let digests: Vec<OrderDigest> = orders
        .iter()
        .map(|(p, c)| OrderDigest::of_orders(match_id, turn, p, c))
        .collect();
    let key = secret.turn_key(match_id, turn, &key_order(&digests));
    let key_v1 = secret.turn_key(match_id, turn, &digests);
    let key0 = secret.turn_key(match_id, turn, &[]);
    // Quicknet round 123 as its relays serve it: a real, public round.
    let beacon = BeaconRound {
        round: 123,
        signature: "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92".into(),
    };
    BeaconNetwork::quicknet().verify(&beacon).unwrap();
    let randomness = beacon.randomness().unwrap();
    let key_b =
        secret.turn_key_with_beacon(match_id, turn, &key_order(&digests), Some(&randomness));
    let l1 = "battle/West Russia/round/1/attacker/infantry";
    let l2 = "battle/West Russia/round/1/defender/infantry";
    let l3 = "sbr/Germany/bomber/1";
    let rej_key = TurnKey(Digest32([0x42; 32]));
    let rej = "vector/rejection/52";
    vec![
        format!("match = {match_id}"),
        format!("turn = {turn}"),
        format!("secret = {}", secret.reveal()),
        format!("commitment = {}", secret.commitment(match_id, turn)),
        format!("order_1_power = {}", orders[0].0),
        format!("order_1_canonical = {:?}", orders[0].1),
        format!("order_1_digest = {}", digests[0]),
        format!("order_2_power = {}", orders[1].0),
        format!("order_2_canonical = {:?}", orders[1].1),
        format!("order_2_digest = {}", digests[1]),
        format!("turn_key = {key}"),
        format!("turn_key_v1 = {key_v1}"),
        format!("turn_key_without_orders = {key0}"),
        format!("beacon_round = {}", beacon.round),
        format!("beacon_signature = {}", beacon.signature),
        format!("beacon_randomness = {randomness}"),
        format!("turn_key_with_beacon = {key_b}"),
        format!("label_1 = {l1}"),
        format!(
            "label_1_stream_key = {}",
            LabelStream::stream_key(&key, &Label::new(l1).unwrap())
        ),
        format!("label_1_d6_x20 = {}", dice(&key, l1, 6, 20)),
        format!("label_2 = {l2}"),
        format!("label_2_d6_x20 = {}", dice(&key, l2, 6, 20)),
        format!("label_3 = {l3}"),
        format!("label_3_d20_x10 = {}", dice(&key, l3, 20, 10)),
        format!("rejection_turn_key = {rej_key}"),
        format!("rejection_label = {rej}"),
        format!("rejection_d65175_x4 = {}", dice(&rej_key, rej, 65175, 4)),
    ]
}

#[test]
fn docs_dice_md_vectors_match_the_code() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/dice.md")).unwrap();
    let block: Vec<String> = doc
        .split("```vectors\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .map(|b| b.lines().map(str::to_owned).collect())
        .unwrap_or_default();
    let computed = computed();
    assert_eq!(
        block,
        computed,
        "docs/dice.md's ```vectors block differs from the code; the code gives:\n```vectors\n{}\n```",
        computed.join("\n")
    );
}

#[test]
fn the_rejection_vector_really_rejects_a_word() {
    // The vector's first keystream word lies above the d65175 zone, so an
    // implementation that forgets to reject gets a different first die.
    let key = TurnKey(Digest32([0x42; 32]));
    let label = Label::new("vector/rejection/52").unwrap();
    let k = LabelStream::stream_key(&key, &label);
    let zone = (1u64 << 32) - (1u64 << 32) % 65175;
    let mut block = [0u8; 4];
    block.copy_from_slice(&chacha_first_word_bytes(&k));
    assert!(u64::from(u32::from_le_bytes(block)) >= zone);
}

/// The first 4 keystream bytes of RFC 8439 ChaCha20 (counter 0, zero nonce),
/// computed here from the block function so the check does not lean on the
/// implementation under test.
fn chacha_first_word_bytes(key: &Digest32) -> [u8; 4] {
    let mut s = [0u32; 16];
    s[..4].copy_from_slice(&[0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
    for i in 0..8 {
        s[4 + i] = u32::from_le_bytes(key.0[4 * i..4 * i + 4].try_into().unwrap());
    }
    let mut x = s;
    fn qr(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(16);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(12);
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(8);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(7);
    }
    for _ in 0..10 {
        qr(&mut x, 0, 4, 8, 12);
        qr(&mut x, 1, 5, 9, 13);
        qr(&mut x, 2, 6, 10, 14);
        qr(&mut x, 3, 7, 11, 15);
        qr(&mut x, 0, 5, 10, 15);
        qr(&mut x, 1, 6, 11, 12);
        qr(&mut x, 2, 7, 8, 13);
        qr(&mut x, 3, 4, 9, 14);
    }
    x[0].wrapping_add(s[0]).to_le_bytes()
}
