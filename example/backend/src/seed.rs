//! The example database: a small shop's customers, orders and products.

use serde_json::json;

use crate::db::{Column, ColumnType as T, Table, Tables};

pub(crate) fn tables() -> Tables {
    let mut customers = Table::new(
        "customers",
        vec![
            Column::new("id", T::Integer, false),
            Column::new("name", T::Text, false),
            Column::new("email", T::Text, true),
            Column::new("city", T::Text, true),
            Column::new("country", T::Text, true),
            Column::new("vip", T::Boolean, false).with_default(json!(false)),
            Column::new("created_on", T::Date, true),
        ],
        "id",
    );
    for row in [
        json!({"id": 1, "name": "Müller Bau GmbH", "email": "info@mueller-bau.example", "city": "Munich", "country": "DE", "vip": false, "created_on": "2023-02-11"}),
        json!({"id": 2, "name": "Northwind Traders", "email": "orders@northwind.example", "city": "Berlin", "country": "DE", "vip": true, "created_on": "2022-11-03"}),
        json!({"id": 3, "name": "Blue Harbor Ltd", "email": null, "city": "Dublin", "country": "IE", "vip": false, "created_on": "2024-06-19"}),
        json!({"id": 4, "name": "Café Lumière", "email": "bonjour@lumiere.example", "city": "Lyon", "country": "FR", "vip": false, "created_on": "2024-01-08"}),
        json!({"id": 5, "name": "Fjord Supplies AS", "email": "post@fjord.example", "city": "Bergen", "country": "NO", "vip": true, "created_on": "2023-09-27"}),
    ] {
        customers.seed(row);
    }

    let mut orders = Table::new(
        "orders",
        vec![
            Column::new("id", T::Integer, false),
            Column::new("customer_id", T::Integer, false),
            Column::new("ordered_on", T::Date, false),
            Column::new("status", T::Text, false).with_default(json!("open")),
            Column::new("total", T::Real, false),
        ],
        "id",
    )
    .references("customer_id", "customers");
    for row in [
        json!({"id": 1001, "customer_id": 2, "ordered_on": "2025-01-14", "status": "shipped", "total": 1240.50}),
        json!({"id": 1002, "customer_id": 1, "ordered_on": "2025-02-02", "status": "shipped", "total": 312.00}),
        json!({"id": 1003, "customer_id": 4, "ordered_on": "2025-02-20", "status": "open", "total": 89.90}),
        json!({"id": 1004, "customer_id": 2, "ordered_on": "2025-03-01", "status": "open", "total": 560.00}),
        json!({"id": 1005, "customer_id": 5, "ordered_on": "2025-03-03", "status": "cancelled", "total": 45.00}),
        json!({"id": 1006, "customer_id": 5, "ordered_on": "2025-03-10", "status": "open", "total": 2210.75}),
    ] {
        orders.seed(row);
    }

    let mut products = Table::new(
        "products",
        vec![
            Column::new("sku", T::Text, false),
            Column::new("name", T::Text, false),
            Column::new("price", T::Real, false),
            Column::new("in_stock", T::Boolean, false).with_default(json!(true)),
        ],
        "sku",
    );
    for row in [
        json!({"sku": "CHR-001", "name": "Oak chair", "price": 129.00, "in_stock": true}),
        json!({"sku": "TBL-010", "name": "Walnut table", "price": 899.00, "in_stock": false}),
        json!({"sku": "LMP-204", "name": "Brass lamp", "price": 74.50, "in_stock": true}),
    ] {
        products.seed(row);
    }

    [customers, orders, products]
        .into_iter()
        .map(|t| (t.name.clone(), t))
        .collect()
}
