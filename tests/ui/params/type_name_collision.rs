// Fields whose generated types share a name: `listRows`'s enum parameter `sortOrder` and
// the enum property `order` of its object parameter `sort` both become `ListRowsSortOrder`,
// and so does tool `list`'s enum parameter `rowsSortOrder`. Each clash is reported at the
// later field, naming the earlier.
catalog_macros::catalog!("ui/params/type_name_collision.toml");

fn main() {}
