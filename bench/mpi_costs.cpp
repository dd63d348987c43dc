// The constants of the cost model in docs/scaling.md, measured on this machine: MPI
// point-to-point latency and bandwidth, the work queue's MPI_Fetch_and_op round trip under
// contention, an 8-byte MPI_Allreduce, and the parallel-HDF5 costs the result file pays
// (file create + close, one collective dataset creation, collective write bandwidth).
//
// A plain MPI program rather than a Google Benchmark: every figure needs all ranks in
// lock step, and Google Benchmark's adaptive iteration counts differ between ranks.
//
//   mpiexec -n 2 build/bench/bench_mpi_costs [--reps 7] [--write-mib 256] [--dir /tmp]
//   mpiexec -n 8 build/bench/bench_mpi_costs --output-only [--ranks-per-node 4]
//
// Every figure is the median over --reps repetitions; within a repetition a collective
// figure is the slowest rank's time (what the caller waits for).

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runner/h5/h5.hpp"
#include "runner/h5/seal.hpp"
#include "runner/mpi/counters.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/result_file.hpp"
#include "runner/output/row_exchange.hpp"

namespace {

using levelforge::mpi::Comm;
using levelforge::mpi::CounterHost;

double now() { return MPI_Wtime(); }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

struct Options {
  int reps = 7;
  int write_mib = 256;
  std::string dir = "/tmp";
  bool distribution_only = false;  // --distribution-only: the work queue and the top-k merge
  bool output_only = false;        // --output-only: the ways of writing a result table
  int ranks_per_node = 0;          // --ranks-per-node: hosts pretended for --output-only
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--distribution-only") {
      options.distribution_only = true;
      continue;
    }
    if (flag == "--output-only") {
      options.output_only = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (flag == "--reps") options.reps = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--write-mib") options.write_mib = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--dir") options.dir = argv[i + 1];
    if (flag == "--ranks-per-node") options.ranks_per_node = std::max(1, std::atoi(argv[i + 1]));
    ++i;
  }
  return options;
}

// Runs `body` (which returns this rank's seconds per operation) `reps` times after one
// warm-up, takes the slowest rank of each repetition and returns the median.
double measure(const Comm& comm, int reps, const std::function<double()>& body) {
  std::vector<double> samples;
  for (int rep = -1; rep < reps; ++rep) {
    comm.barrier();
    const double local = body();
    const double slowest = comm.all_reduce_max(local);
    if (rep >= 0) samples.push_back(slowest);
  }
  return median(samples);
}

// Half the round trip of `bytes` between ranks 0 and 1: the one-way time of one message.
double ping_pong(const Comm& comm, std::size_t bytes, int iterations) {
  std::vector<char> buffer(bytes, 'x');
  const int count = static_cast<int>(bytes);
  const int rank = comm.rank();
  if (rank > 1) return 0.0;
  const double start = now();
  for (int i = 0; i < iterations; ++i) {
    if (rank == 0) {
      MPI_Send(buffer.data(), count, MPI_CHAR, 1, 0, comm.native());
      MPI_Recv(buffer.data(), count, MPI_CHAR, 1, 0, comm.native(), MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer.data(), count, MPI_CHAR, 0, 0, comm.native(), MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), count, MPI_CHAR, 0, 0, comm.native());
    }
  }
  return (now() - start) / (2.0 * iterations);
}

struct Row {
  std::string what;
  double value;
  std::string unit;
  std::string note;
};

void print(const std::vector<Row>& rows, int ranks, const Options& options) {
  std::printf("bench_mpi_costs: %d rank(s), medians of %d repetitions, host %s\n\n", ranks,
              options.reps, levelforge::mpi::processor_name().c_str());
  std::printf("| %-44s | %12s | %-6s | %s |\n", "constant", "median", "unit", "how");
  std::printf("|%s|-------------:|--------|-----|\n", std::string(46, '-').c_str());
  for (const auto& row : rows) {
    std::printf("| %-44s | %12.3f | %-6s | %s |\n", row.what.c_str(), row.value, row.unit.c_str(),
                row.note.c_str());
  }
}

// The work queue's request on both counter hosts. A window the transport cannot give (osc/pt2pt
// under MPI_THREAD_MULTIPLE) is a row saying so.
void queue_rows(const Comm& comm, const Options& options, std::vector<Row>& rows) {
  const int ranks = comm.size();
  for (const auto host : {CounterHost::window, CounterHost::server}) {
    const auto name = std::string(levelforge::mpi::counter_host_name(host));
    // The work queue's request (Counters::fetch_add of its three counters), every rank
    // pulling as fast as it can: the worst case of contention.
    constexpr int pulls = 2000;
    std::unique_ptr<levelforge::mpi::Counters> counters;
    try {
      counters = levelforge::mpi::make_counters(comm, 3, host);
    } catch (const levelforge::mpi::MpiError& error) {
      rows.push_back(
          {"queue request, " + name, 0.0, "-", std::string("unavailable: ") + error.what()});
      continue;
    }
    const std::array<std::int64_t, 3> claim{1, 1, 1};
    const double seconds = measure(comm, options.reps, [&] {
      const double start = now();
      for (int i = 0; i < pulls; ++i) (void)counters->fetch_add(claim);
      return (now() - start) / pulls;
    });
    rows.push_back({"queue request, " + name + ", all ranks pulling", 1e6 * seconds, "us",
                    "slowest rank, 2000 requests; " + counters->description()});
    if (ranks >= 2) {
      // Rank 0 computes (no MPI call) while the others pull: what a rank waits for work.
      const double busy = measure(comm, options.reps, [&] {
        if (comm.rank() == 0) {
          const double start = now();
          while (now() - start < 0.2) {
          }
          return 0.0;
        }
        constexpr int busy_pulls = 100;
        const double start = now();
        for (int i = 0; i < busy_pulls; ++i) (void)counters->fetch_add(claim);
        return (now() - start) / busy_pulls;
      });
      rows.push_back({"queue request, " + name + ", rank 0 computing", 1e6 * busy, "us",
                      "slowest other rank, 100 requests while rank 0 spins 0.2 s"});
    }
    counters->free();
  }
}

// A top-k table of k rows (64 B, the score first) per rank merged over all ranks: up a
// binomial tree (Comm::tree_reduce_bytes, what the exhaustive driver does) against an
// allgather of every rank's rows (what it did), and how many rows one rank holds at most.
void top_k_rows(const Comm& comm, const Options& options, std::vector<Row>& rows) {
  constexpr std::size_t k = 100;
  constexpr std::size_t row_bytes = 64;
  std::vector<std::byte> mine(k * row_bytes);
  for (std::size_t i = 0; i < k; ++i) {
    const double score =
        static_cast<double>((i * 7919 + static_cast<std::size_t>(comm.rank()) * 104729) % 100003);
    std::memcpy(mine.data() + i * row_bytes, &score, sizeof score);
  }
  const auto best_k = [&](std::vector<std::byte> all) {
    std::vector<std::pair<double, std::size_t>> order(all.size() / row_bytes);
    for (std::size_t i = 0; i < order.size(); ++i) {
      std::memcpy(&order[i].first, all.data() + i * row_bytes, sizeof(double));
      order[i].second = i;
    }
    std::sort(order.begin(), order.end(), std::greater<>());
    order.resize(std::min(order.size(), k));
    std::vector<std::byte> kept(order.size() * row_bytes);
    for (std::size_t i = 0; i < order.size(); ++i)
      std::memcpy(kept.data() + i * row_bytes, all.data() + order[i].second * row_bytes, row_bytes);
    return kept;
  };
  std::size_t tree_peak = 0;
  const double tree = measure(comm, options.reps, [&] {
    const double start = now();
    const auto merged = comm.tree_reduce_bytes(
        mine, [&](std::vector<std::byte> own, std::span<const std::byte> received) {
          own.insert(own.end(), received.begin(), received.end());
          tree_peak = std::max(tree_peak, own.size() / row_bytes);
          return best_k(std::move(own));
        });
    return now() - start;
  });
  const double gather = measure(comm, options.reps, [&] {
    const double start = now();
    (void)best_k(comm.all_gather_bytes(mine));
    return now() - start;
  });
  const auto ranks = static_cast<std::size_t>(comm.size());
  rows.push_back(
      {"top-k merge, k = 100 x 64 B, binomial tree", 1e6 * tree, "us",
       "slowest rank; at most " + std::to_string(std::max(tree_peak, k)) + " rows on a rank"});
  rows.push_back({"top-k merge, k = 100 x 64 B, allgather", 1e6 * gather, "us",
                  "slowest rank; " + std::to_string(ranks * k) + " rows on every rank"});
}

// The sweep benchmark's output, alone: 10,000 rows of 96 B (one per task) dealt out
// round robin as the queue would, written (a) by every rank into the shared file, (b) by one
// writer per node into it (the rows travel to the writers first), (c) by each node's writer
// into a file of its own, joined by a virtual dataset in the result file, and (d) like (c),
// then copied into one file by rank 0 (the existing merge's way). Each figure is the whole
// write: files created, rows exchanged and written (chunked and compressed as the result
// file's tables are), files closed and sealed, the slowest rank.
// --ranks-per-node pretends the ranks sit on hosts of that many (default: the real hosts).
void output_rows(const Comm& comm, const Options& options, const std::string& dir,
                 std::vector<Row>& rows) {
  namespace h5 = levelforge::h5;
  constexpr std::uint64_t row_count = 10000;
  constexpr hsize_t row_width = 12;  // int64 values: 96 B
  const auto rank = static_cast<std::uint64_t>(comm.rank());
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  std::vector<std::uint64_t> mine;
  std::vector<std::byte> data;
  for (auto row = rank; row < row_count; row += ranks) {
    mine.push_back(row);
    std::vector<std::int64_t> values(row_width, static_cast<std::int64_t>(row));
    const auto* bytes = reinterpret_cast<const std::byte*>(values.data());
    data.insert(data.end(), bytes, bytes + row_width * sizeof(std::int64_t));
  }
  auto hosts = comm.all_gather_strings(levelforge::mpi::processor_name());
  if (options.ranks_per_node > 0) {
    for (std::size_t r = 0; r < hosts.size(); ++r)
      hosts[r] = "node" + std::to_string(r / static_cast<std::size_t>(options.ranks_per_node));
  }
  const auto type = h5::Datatype::int64();
  const std::vector<hsize_t> dims{row_count, row_width};
  const auto shared = [&](levelforge::OutputWriters writers) {
    return measure(comm, options.reps, [&] {
      const double start = now();
      levelforge::ResultFile file(dir + "/shared.h5", comm.dup(), hosts, writers);
      auto array = file.create_array("rows", type, dims);
      file.write_rows(array, type, mine, data);
      array.dataset.reset();
      file.commit();
      return now() - start;
    });
  };
  const auto writers = levelforge::writer_ranks(hosts, {});
  const bool writer = std::binary_search(writers.begin(), writers.end(), comm.rank());
  const auto node_file = [&](std::size_t k) { return dir + "/node" + std::to_string(k) + ".h5"; };
  const auto storage = [&](hsize_t count) {  // the result file's (result_file.cpp)
    h5::DatasetOptions stored;
    stored.chunk = {std::min<hsize_t>(count, hsize_t{256} * 1024 / (row_width * 8)), row_width};
    stored.deflate_level = 4;
    stored.shuffle = true;
    return stored;
  };
  const auto slice = [&](std::size_t k) { return row_count * k / writers.size(); };
  // (c) without the join, which (c) and (d) each add.
  const auto node_files = [&] {
    const auto owned = levelforge::exchange_rows(comm, writers, row_count,
                                                 row_width * sizeof(std::int64_t), mine, data);
    if (!writer) return;
    const auto k = static_cast<std::size_t>(std::find(writers.begin(), writers.end(), comm.rank()) -
                                            writers.begin());
    {
      auto file = h5::File::create_serial(node_file(k));
      const auto count = slice(k + 1) - slice(k);
      file.root()
          .create_dataset("rows", type, {count, row_width}, storage(count))
          .write_all(type, owned.data.bytes().data());
    }
    h5::seal(node_file(k));
  };
  const double virtual_join = measure(comm, options.reps, [&] {
    const double start = now();
    node_files();
    if (comm.rank() == 0) {
      {
        auto file = h5::File::create_serial(dir + "/virtual.h5");
        const hid_t space = H5Screate_simple(2, dims.data(), nullptr);
        const hid_t creation = H5Pcreate(H5P_DATASET_CREATE);
        for (std::size_t k = 0; k < writers.size(); ++k) {
          const std::array<hsize_t, 2> start_at{slice(k), 0};
          const std::array<hsize_t, 2> count{slice(k + 1) - slice(k), row_width};
          H5Sselect_hyperslab(space, H5S_SELECT_SET, start_at.data(), nullptr, count.data(),
                              nullptr);
          const hid_t source = H5Screate_simple(2, count.data(), nullptr);
          H5Pset_virtual(creation, space, node_file(k).c_str(), "rows", source);
          H5Sclose(source);
        }
        H5Sselect_all(space);
        const hid_t dataset = H5Dcreate2(file.id(), "rows", H5T_NATIVE_INT64, space, H5P_DEFAULT,
                                         creation, H5P_DEFAULT);
        H5Dclose(dataset);
        H5Pclose(creation);
        H5Sclose(space);
      }
      h5::seal(dir + "/virtual.h5");
    }
    comm.barrier();
    return now() - start;
  });
  const double merge_join = measure(comm, options.reps, [&] {
    const double start = now();
    node_files();
    comm.barrier();
    if (comm.rank() == 0) {
      {
        auto file = h5::File::create_serial(dir + "/merged.h5");
        auto merged = file.root().create_dataset("rows", type, dims, storage(row_count));
        std::vector<std::int64_t> part;
        for (std::size_t k = 0; k < writers.size(); ++k) {
          const auto count = slice(k + 1) - slice(k);
          part.resize(count * row_width);
          h5::File::open_serial(node_file(k), h5::Access::read_only)
              .root()
              .open_dataset("rows")
              .read_all(type, part.data());
          merged.write(type, {{{slice(k), 0}, {count, row_width}}}, part.data(),
                       h5::Transfer::independent);
        }
      }
      h5::seal(dir + "/merged.h5");
    }
    comm.barrier();
    return now() - start;
  });
  const auto nodes = " (" + std::to_string(writers.size()) + " nodes)";
  rows.push_back({"result table, every rank writes", 1e3 * shared({1}), "ms",
                  "10000 x 96 B rows, shared file, " + std::to_string(ranks) + " writers"});
  rows.push_back({"result table, a writer per node", 1e3 * shared({}), "ms",
                  "shared file, " + std::to_string(writers.size()) + " writers"});
  rows.push_back({"result table, node files + virtual dataset", 1e3 * virtual_join, "ms",
                  "a file per node" + nodes + ", rank 0 maps them"});
  rows.push_back({"result table, node files + merge", 1e3 * merge_join, "ms",
                  "a file per node" + nodes + ", rank 0 copies them into one"});
}

}  // namespace

int main(int argc, char** argv) {
  levelforge::mpi::Environment environment(argc, argv);
  const auto options = parse(argc, argv);
  const auto comm = Comm::world();
  const int ranks = comm.size();
  std::vector<Row> rows;
  if (options.output_only) {
    auto pid = static_cast<std::int64_t>(getpid());
    comm.broadcast_value(pid, 0);
    const auto dir = options.dir + "/bench_mpi_costs_" + std::to_string(pid);
    if (comm.rank() == 0) std::filesystem::create_directories(dir);
    comm.barrier();
    output_rows(comm, options, dir, rows);
    comm.barrier();
    if (comm.rank() == 0) {
      std::filesystem::remove_all(dir);
      print(rows, ranks, options);
    }
    return 0;
  }
  if (options.distribution_only) {
    queue_rows(comm, options, rows);
    top_k_rows(comm, options, rows);
    if (comm.rank() == 0) print(rows, ranks, options);
    return 0;
  }

  if (ranks >= 2) {
    rows.push_back({"ping-pong latency, 8 B, rank 0 <-> 1",
                    1e6 * measure(comm, options.reps, [&] { return ping_pong(comm, 8, 20000); }),
                    "us", "half round trip, 20000 round trips"});
    const double mib_seconds =
        measure(comm, options.reps, [&] { return ping_pong(comm, 1 << 20, 200); });
    rows.push_back({"ping-pong bandwidth, 1 MiB, rank 0 <-> 1", 1.0 / mib_seconds / 1024.0, "GiB/s",
                    "1 MiB / half round trip, 200 round trips"});
  }

  queue_rows(comm, options, rows);
  top_k_rows(comm, options, rows);

  {
    constexpr int iterations = 20000;
    const double seconds = measure(comm, options.reps, [&] {
      std::int64_t value = 1;
      const double start = now();
      for (int i = 0; i < iterations; ++i) {
        MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, comm.native());
      }
      return (now() - start) / iterations;
    });
    rows.push_back({"MPI_Allreduce, 8 B", 1e6 * seconds, "us", "20000 calls"});
  }

  // Every rank must use the same file name: rank 0's pid, broadcast.
  auto pid = static_cast<std::int64_t>(getpid());
  comm.broadcast_value(pid, 0);
  const std::string path = options.dir + "/bench_mpi_costs_" + std::to_string(pid) + ".h5";
  namespace h5 = levelforge::h5;

  {
    const double seconds = measure(comm, options.reps, [&] {
      const double start = now();
      auto file = h5::File::create(path, comm.native());
      file.close();
      return now() - start;
    });
    rows.push_back({"HDF5 parallel file create + close", 1e3 * seconds, "ms", "empty file"});
  }

  {
    // A result table costs one collective creation plus one collective write of its rows;
    // 100 of each per file shows the per-dataset figure once the file is open.
    constexpr int datasets = 100;
    double write_seconds = 0.0;
    const double create_seconds = measure(comm, options.reps, [&] {
      auto file = h5::File::create(path, comm.native());
      std::vector<std::int64_t> data(1024, 7);
      double created = 0.0;
      double written = 0.0;
      {
        // Scoped: a parallel file refuses to close while its groups or datasets are open.
        auto root = file.root();
        for (int d = 0; d < datasets; ++d) {
          std::string name = "d";
          name += std::to_string(d);
          double start = now();
          auto dataset = root.create_dataset(name, h5::Datatype::int64(),
                                             {hsize_t{1024} * static_cast<hsize_t>(comm.size())});
          created += now() - start;
          start = now();
          const auto first = hsize_t{1024} * static_cast<hsize_t>(comm.rank());
          dataset.write(h5::Datatype::int64(), {{{first}, {1024}}}, data.data());
          written += now() - start;
        }
      }
      file.close();
      write_seconds = comm.all_reduce_max(written / datasets);
      return created / datasets;
    });
    rows.push_back({"HDF5 collective dataset creation", 1e3 * create_seconds, "ms",
                    "1-D int64, contiguous, 100 per file"});
    rows.push_back({"HDF5 collective write, 8 KiB per rank", 1e3 * write_seconds, "ms",
                    "same datasets; last repetition"});
  }

  {
    // Collective write bandwidth: one contiguous slice per rank of a --write-mib dataset,
    // flushed so that the figure includes getting the bytes to the file system (page cache).
    const auto total = static_cast<hsize_t>(options.write_mib) * (1U << 20) / 8;
    const auto share = total / static_cast<hsize_t>(comm.size());
    std::vector<std::int64_t> data(static_cast<std::size_t>(share), 42);
    const double seconds = measure(comm, options.reps, [&] {
      auto file = h5::File::create(path, comm.native());
      double elapsed = 0.0;
      {
        auto dataset = file.root().create_dataset("big", h5::Datatype::int64(),
                                                  {share * static_cast<hsize_t>(comm.size())});
        comm.barrier();
        const double start = now();
        dataset.write(h5::Datatype::int64(),
                      {{{share * static_cast<hsize_t>(comm.rank())}, {share}}}, data.data());
        file.flush();
        elapsed = now() - start;
      }
      file.close();
      return elapsed;
    });
    rows.push_back(
        {"HDF5 collective write bandwidth, " + std::to_string(options.write_mib) + " MiB",
         static_cast<double>(options.write_mib) / 1024.0 / seconds, "GiB/s",
         "to " + options.dir + ", write + flush, no fsync"});
  }
  if (comm.rank() == 0) {
    std::filesystem::remove(path);
    print(rows, ranks, options);
  }
  return 0;
}
