use super::*;

fn reader(data: &[u8]) -> Reader<'_, 'static, Leak> {
    Reader {
        text: "",
        data,
        arena: &Leak,
        at: 0,
        text_at: 0,
    }
}

#[test]
fn numbers_read_back_at_every_width() {
    let values = [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX];
    let mut w = Writer::new();
    for n in values {
        w.uint(n);
    }
    let data = w.finish().1;
    let mut r = reader(&data);
    for n in values {
        assert_eq!(r.uint(), Ok(n));
    }
    assert!(r.uint().is_err(), "nothing left");
    // Eleven continuation bytes overflow a u64: an error, not a shift past 64 bits.
    assert!(reader(&[0x80; 11]).uint().is_err());
}

/// Whatever the bytes, decoding ends in specs or an error, never a panic.
#[test]
fn arbitrary_bytes_never_panic() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = usize::try_from(next() % 64).unwrap_or(0);
        // Small values, so tags, flags and counts are often valid and decoding goes deep.
        let data: Vec<u8> = (0..len)
            .map(|_| u8::try_from(next() % 16).unwrap())
            .collect();
        let _ = unpack("abcdefghijklmnopqrstuvwxyz表", &data, &Leak);
    }
}

#[test]
fn a_count_larger_than_the_data_is_refused_before_allocating() {
    let mut w = Writer::new();
    w.uint(u64::MAX);
    assert!(reader(&w.finish().1).strs().is_err());
}
