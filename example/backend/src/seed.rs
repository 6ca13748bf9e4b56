//! The example database: a small shop's customers, orders and products, written into
//! a database that has no tables yet.

use rusqlite::Connection;

use crate::Error;

const EXAMPLE: &str = r#"
CREATE TABLE "customers" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  "name" TEXT NOT NULL,
  "email" TEXT,
  "city" TEXT,
  "country" TEXT,
  "vip" BOOLEAN NOT NULL DEFAULT 0,
  "created_on" DATE
);
INSERT INTO "customers" VALUES
  (1, 'Müller Bau GmbH', 'info@mueller-bau.example', 'Munich', 'DE', 0, '2023-02-11'),
  (2, 'Northwind Traders', 'orders@northwind.example', 'Berlin', 'DE', 1, '2022-11-03'),
  (3, 'Blue Harbor Ltd', NULL, 'Dublin', 'IE', 0, '2024-06-19'),
  (4, 'Café Lumière', 'bonjour@lumiere.example', 'Lyon', 'FR', 0, '2024-01-08'),
  (5, 'Fjord Supplies AS', 'post@fjord.example', 'Bergen', 'NO', 1, '2023-09-27');

CREATE TABLE "orders" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  "customer_id" INTEGER NOT NULL,
  "ordered_on" DATE NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'open',
  "total" REAL NOT NULL,
  FOREIGN KEY ("customer_id") REFERENCES "customers" ("id")
);
INSERT INTO "orders" VALUES
  (1001, 2, '2025-01-14', 'shipped', 1240.50),
  (1002, 1, '2025-02-02', 'shipped', 312.00),
  (1003, 4, '2025-02-20', 'open', 89.90),
  (1004, 2, '2025-03-01', 'open', 560.00),
  (1005, 5, '2025-03-03', 'cancelled', 45.00),
  (1006, 5, '2025-03-10', 'open', 2210.75);
-- Filtering orders by customer is the common join; by date, the common report.
CREATE INDEX "orders_customer_id" ON "orders" ("customer_id");
CREATE INDEX "orders_ordered_on" ON "orders" ("ordered_on");

CREATE TABLE "products" (
  "sku" TEXT PRIMARY KEY NOT NULL,
  "name" TEXT NOT NULL,
  "price" REAL NOT NULL,
  "in_stock" BOOLEAN NOT NULL DEFAULT 1,
  "description" TEXT
);
INSERT INTO "products" VALUES
  ('CHR-001', 'Oak chair', 129.00, 1, 'Solid oak dining chair with a woven rush seat'),
  ('TBL-010', 'Walnut table', 899.00, 0, 'Oiled walnut dining table that seats six'),
  ('LMP-204', 'Brass lamp', 74.50, 1, 'Brass desk lamp with a warm dimmable bulb');
-- Embedded when the backend starts, with its embedder (see `vectors`).
INSERT INTO "_embedded" VALUES ('products', 'description', '');
"#;

/// Creates and fills the example tables; the caller holds the transaction.
pub(crate) fn example(conn: &Connection) -> Result<(), Error> {
    conn.execute_batch(EXAMPLE)?;
    Ok(())
}
