/// The SQL functions the PostgreSQL dialect of compiled queries calls, created in the realm's
/// schema by SQL text: folding (`kura_fold`, `kura_fold_d`, `kura_fold_cd` through the fold table
/// Swift computed), Realm's LIKE, numbers in mixed values and decimals, decimal order,
/// `kura_compare`, `kura_mixed_key` and `kura_real`. They read only their arguments and the fold
/// table, which never changes for a realm, so they are declared IMMUTABLE.
enum PostgresQueryFunctions {
    /// `kura_like(value, pattern)`: Realm's LIKE (`*` any run, `?` one character) on UTF-8 bytes.
    static let like = "kura_like"
    /// `kura_number(bytes)`: decimal text (a mixed number, a decimal) as `numeric`; null for other text.
    static let number = "kura_number"
    /// `kura_decimal_key(bytes)`: an array ordered as `ValueOrder` orders decimals (NaN first).
    static let decimalKey = "kura_decimal_key"
    /// `kura_decimal_text(numeric)`: a number as a decimal's bytes.
    static let decimalText = "kura_decimal_text"
    /// The type `kura_mixed_key` returns: a rank for the kind, then a number or the bytes.
    static let mixedOrderType = "kura_mixed_order"

    /// Creates (or replaces) every function in the session's schema and fills the fold table.
    static func install(on session: PostgresSession) throws(KuraError) {
        try PostgresFoldTable.install(on: session)
        try session.execute(
            "DO $$ BEGIN CREATE TYPE \(mixedOrderType) AS (rank integer, number numeric[], bytes bytea); "
                + "EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        for statement in statements { try session.execute(statement) }
    }

    /// The width of a UTF-8 sequence from its first byte `b`.
    private static let width = "CASE WHEN b < 192 THEN 1 WHEN b < 224 THEN 2 WHEN b < 240 THEN 3 ELSE 4 END"

    private static var statements: [String] {
        let folds = [(QueryFunctions.fold, 1), (QueryFunctions.foldDiacritics, 2), (QueryFunctions.foldBoth, 3)].map { name, kind in
            "CREATE OR REPLACE FUNCTION \(name)(value bytea) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS "
                + "$$ SELECT kura_fold_with(value, \(kind)) $$"
        }
        return [foldWith] + folds + [
            likeFunction, numberFunction, decimalKeyFunction, decimalTextFunction, realFunction, compareFunction, mixedKeyFunction,
        ]
    }

    /// Folds by kind (1 case, 2 diacritics, 3 both): ASCII text only lowers its letters (as
    /// `StringOptions.fold` does); other text maps each scalar through the fold table, by what it
    /// folds to after a base (kind + 4) when one comes before it in its character: any scalar but
    /// a control, after which a mark starts a character of its own.
    private static let foldWith = #"""
        CREATE OR REPLACE FUNCTION kura_fold_with(value bytea, kind integer) RETURNS bytea
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
        DECLARE
            n integer := length(value);
            i integer := 0;
            b integer;
            w integer;
            scalar integer;
            folded bytea;
            result bytea := '\x'::bytea;
            ascii boolean := true;
            prev integer := -1;
        BEGIN
            FOR k IN 0 .. n - 1 LOOP
                IF get_byte(value, k) >= 128 THEN ascii := false; EXIT; END IF;
            END LOOP;
            IF ascii THEN
                IF kind & 1 = 0 THEN RETURN value; END IF;
                RETURN decode(lower(encode(value, 'escape') COLLATE "C"), 'escape');
            END IF;
            WHILE i < n LOOP
                b := get_byte(value, i);
                IF b < 128 THEN
                    IF kind & 1 = 1 AND b BETWEEN 65 AND 90 THEN b := b + 32; END IF;
                    result := result || set_byte('\x00'::bytea, 0, b);
                    prev := b;
                    i := i + 1;
                ELSE
                    w := \#(width);
                    scalar := CASE w WHEN 2 THEN b & 31 WHEN 3 THEN b & 15 ELSE b & 7 END;
                    FOR k IN 1 .. w - 1 LOOP
                        scalar := (scalar << 6) | (get_byte(value, i + k) & 63);
                    END LOOP;
                    SELECT f."#folded" INTO folded FROM "#fold" AS f
                    WHERE f."#scalar" = scalar AND (f."#kind" = kind OR f."#kind" = kind + 4 AND prev >= 32
                        AND NOT (prev BETWEEN 127 AND 159 OR prev IN (8232, 8233)))
                    ORDER BY f."#kind" DESC LIMIT 1;
                    IF FOUND THEN result := result || folded; ELSE result := result || substr(value, i + 1, w); END IF;
                    prev := scalar;
                    i := i + w;
                END IF;
            END LOOP;
            RETURN result;
        END $$
        """#

    /// Wildcard matching with one backtracking point (the last `*`), which is exact for patterns of
    /// `*` and `?` alone and takes time in the product of the lengths at worst; `?` takes one
    /// whole UTF-8 sequence, other pattern bytes match themselves.
    private static let likeFunction = #"""
        CREATE OR REPLACE FUNCTION kura_like(value bytea, pattern bytea) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
        DECLARE
            n integer := length(value);
            m integer := length(pattern);
            i integer := 0;
            j integer := 0;
            star integer := -1;
            mark integer := 0;
            p integer;
            b integer;
        BEGIN
            WHILE i < n LOOP
                p := CASE WHEN j < m THEN get_byte(pattern, j) ELSE -1 END;
                IF p = 63 THEN
                    b := get_byte(value, i);
                    i := i + \#(width);
                    j := j + 1;
                ELSIF p = 42 THEN
                    star := j;
                    j := j + 1;
                    mark := i;
                ELSIF p >= 0 AND p = get_byte(value, i) THEN
                    i := i + 1;
                    j := j + 1;
                ELSIF star >= 0 THEN
                    j := star + 1;
                    b := get_byte(value, mark);
                    mark := mark + \#(width);
                    i := mark;
                ELSE
                    RETURN false;
                END IF;
            END LOOP;
            IF i > n THEN RETURN false; END IF;
            WHILE j < m AND get_byte(pattern, j) = 42 LOOP j := j + 1; END LOOP;
            RETURN j = m;
        END $$
        """#

    /// Only text that is a number becomes one: other bytes (a string beside numbers in a mixed
    /// column, which PostgreSQL may read before the tag test) give null rather than an error.
    private static let numberFunction = #"""
        CREATE OR REPLACE FUNCTION kura_number(value bytea) RETURNS numeric
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
            SELECT CASE WHEN t ~ '^-?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,5})?|Infinity|NaN)$' THEN t::numeric END
            FROM (SELECT encode(value, 'escape') AS t) AS s
        $$
        """#

    private static let decimalKeyFunction = #"""
        CREATE OR REPLACE FUNCTION kura_decimal_key(value bytea) RETURNS numeric[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
            SELECT CASE WHEN x = 'NaN' THEN ARRAY[0::numeric] ELSE ARRAY[1::numeric, x] END
            FROM (SELECT kura_number(value) AS x) AS s
        $$
        """#

    private static let decimalTextFunction = #"""
        CREATE OR REPLACE FUNCTION kura_decimal_text(value numeric) RETURNS bytea
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT convert_to(value::text, 'UTF8') $$
        """#

    /// The double whose IEEE 754 bits are the integer: sign, exponent and fraction put together in
    /// double arithmetic, every step exact.
    private static let realFunction = #"""
        CREATE OR REPLACE FUNCTION kura_real(bits bigint) RETURNS double precision
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
            SELECT CASE
                WHEN e = 2047 AND f = 0 THEN s * 'Infinity'::double precision
                WHEN e = 2047 THEN 'NaN'::double precision
                WHEN e = 0 THEN s * (f::double precision * power(2::double precision, -1074))
                ELSE s * ((1 + f::double precision / 4503599627370496) * power(2::double precision, e - 1023))
            END
            FROM (SELECT CASE WHEN bits < 0 THEN -1::double precision ELSE 1::double precision END AS s,
                         ((bits >> 52) & 2047)::integer AS e, bits & 4503599627370495 AS f) AS parts
        $$
        """#

    /// `StoredComparison.compare` on values as mixed columns hold them.
    private static let compareFunction = #"""
        CREATE OR REPLACE FUNCTION kura_compare(ltag bigint, lvalue bytea, rtag bigint, rvalue bytea) RETURNS integer
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        DECLARE
            lnull boolean := ltag IS NULL OR ltag = \#(MixedTag.null) OR lvalue IS NULL;
            rnull boolean := rtag IS NULL OR rtag = \#(MixedTag.null) OR rvalue IS NULL;
            numbers bigint[] := ARRAY[\#(MixedTag.int), \#(MixedTag.float), \#(MixedTag.double), \#(MixedTag.decimal)];
            lkey numeric[];
            rkey numeric[];
        BEGIN
            IF lnull AND rnull THEN RETURN 0; END IF;
            IF lnull OR rnull THEN RETURN 2; END IF;
            IF ltag >= \#(MixedTag.linkBase) OR ltag IN (\#(MixedTag.list), \#(MixedTag.map))
                OR rtag >= \#(MixedTag.linkBase) OR rtag IN (\#(MixedTag.list), \#(MixedTag.map)) THEN
                RETURN CASE WHEN ltag = rtag AND lvalue = rvalue THEN 0 ELSE 2 END;
            END IF;
            IF ltag = ANY (numbers) AND rtag = ANY (numbers) OR ltag = rtag AND ltag IN (\#(MixedTag.bool), \#(MixedTag.date)) THEN
                lkey := kura_decimal_key(lvalue);
                rkey := kura_decimal_key(rvalue);
                RETURN CASE WHEN lkey < rkey THEN -1 WHEN lkey = rkey THEN 0 ELSE 1 END;
            END IF;
            IF ltag <> rtag THEN RETURN 2; END IF;
            RETURN CASE WHEN lvalue < rvalue THEN -1 WHEN lvalue = rvalue THEN 0 ELSE 1 END;
        END $$
        """#

    /// `MixedSortKey`'s order: kinds ranked as Realm ranks them, numbers of every kind by value.
    private static let mixedKeyFunction = #"""
        CREATE OR REPLACE FUNCTION kura_mixed_key(tag bigint, value bytea) RETURNS kura_mixed_order
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE
                WHEN value IS NULL OR coalesce(tag, 0) = \#(MixedTag.null) THEN ROW(0, '{}', '\x')::kura_mixed_order
                WHEN tag >= \#(MixedTag.linkBase) THEN ROW(8, ARRAY[tag - \#(MixedTag.linkBase), kura_number(value)], '\x')::kura_mixed_order
                WHEN tag = \#(MixedTag.bool) THEN ROW(1, ARRAY[kura_number(value)], '\x')::kura_mixed_order
                WHEN tag IN (\#(MixedTag.int), \#(MixedTag.float), \#(MixedTag.double), \#(MixedTag.decimal))
                    THEN ROW(2, kura_decimal_key(value), '\x')::kura_mixed_order
                WHEN tag = \#(MixedTag.string) THEN ROW(3, '{}', value)::kura_mixed_order
                WHEN tag = \#(MixedTag.data) THEN ROW(4, '{}', value)::kura_mixed_order
                WHEN tag = \#(MixedTag.date) THEN ROW(5, ARRAY[kura_number(value)], '\x')::kura_mixed_order
                WHEN tag = \#(MixedTag.objectId) THEN ROW(6, '{}', value)::kura_mixed_order
                WHEN tag = \#(MixedTag.uuid) THEN ROW(7, '{}', value)::kura_mixed_order
                WHEN tag = \#(MixedTag.list) THEN ROW(9, '{}', '\x')::kura_mixed_order
                ELSE ROW(10, '{}', '\x')::kura_mixed_order
            END
        $$
        """#
}
