use schema_core::AgentSchema;

// A failed derive on a generic type still gets a stand-in impl with the same generics, so the
// use in `main` adds no error of its own.
#[derive(AgentSchema)]
struct Page<T> {
    #[schema(max_itmes = 3)]
    items: Vec<T>,
}

fn main() {
    let _ = Page::<String>::typescript();
}
